"""Engine analysis of verified game records: consent, the task, its sweep, the record and player pages."""
