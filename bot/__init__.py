"""The application around the rules: service, database, Discord layer, rendering, catalogues and tools."""
