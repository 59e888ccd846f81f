"""The project's adversarial suite: one file per class of attack (seating, seeing, clicking,
input, channels), each attack a real interaction as Discord would deliver it or a forged
payload. docs/security.md says what each role can and cannot do."""
