"""The site's date, time and number formats per language (settings.FORMAT_MODULE_PATH); docs/ui.md says why."""
