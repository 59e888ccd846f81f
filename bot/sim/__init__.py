"""Game simulator: whole games between baseline AI players, and their statistics.

``knowledge`` holds what one player may know, ``ai`` decides from that alone, ``runner``
plays games through the public engine API, ``report``/``plot`` summarise them and
``cli`` is ``wolfhowl simulate``.
"""
