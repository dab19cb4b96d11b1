"""Uploaded game records and their verification verdicts."""
