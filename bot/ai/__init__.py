"""The baseline AI player and the games it plays: a library below the service, the
Discord layer and the tools (an AI seat's turn, a line-up's odds, ``wolfhowl simulate``
and the demo's scripted players all use it).

``knowledge`` holds what one player may know, ``player`` decides from that alone (with
``tactics``: its class's skills), ``runner`` plays whole games through the public engine
API, and ``odds`` turns a line-up's games into each faction's win rate with its Wilson
interval.
"""
