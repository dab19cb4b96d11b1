"""Writes for ratings, by domain: `pools` (rating confirmed matches, recomputing a pool), `seasons` (club
seasons), `ladders` (club ladders). Callers import the module they need (`from ratings.services import pools`);
event points are the points app's."""
