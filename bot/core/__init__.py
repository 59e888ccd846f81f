"""The core of the service: values and settings, errors, the access policy, the
outbox and its delivery, the phase clock and the advance. Knows nothing of Discord nor
of how anything reads; the features build on it."""
