"""What a finished game leaves: ``records`` (written once at the end), ``ratings``
(OpenSkill, all-time and per season), ``reliability`` (phases sent of those asked),
``backfill`` (records for games that ended before they were kept)."""
