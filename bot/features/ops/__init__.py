"""What an operator asks of the service: ``health`` (``wolfhowl health``), ``gauges`` (the
metrics' database readings), ``overview`` (``wolfhowl games``), ``db_check`` (``wolfhowl
db check``)."""
