"""Property tests: any submission is applied or refused with a rule error, and invariants hold."""
