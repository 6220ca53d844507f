"""Date formats the site adds to Django's own, by language (settings.FORMAT_MODULE_PATH)."""
