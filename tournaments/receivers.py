"""Where the tournaments app plugs into match play: results move the bracket, event directors direct matches."""


def register() -> None:
    from games.matchplay.hooks import on_result_confirmed
    from games.models.matches import register_director_check
    from tournaments import rules, services

    on_result_confirmed(services.result_confirmed)
    register_director_check(rules.directs_match)
