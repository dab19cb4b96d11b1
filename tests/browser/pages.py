"""What many browser tests do the same way: signing in."""

PASSWORD = "pw-for-tests"


def sign_in(page, base: str, username: str, next_url: str = "/", password: str = PASSWORD, tap: bool = False) -> None:
    """Signed in once the answer to the form has arrived at `next_url`. The address is compared whole: a pattern
    such as `**/chouette/5/` also matches the sign-in page's own address (`?next=/chouette/5/`), so waiting for it
    returned at once, before the sign-in had happened."""
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    submit = page.locator("main button[type=submit]")
    with page.expect_navigation():
        if tap:
            submit.tap()
        else:
            submit.click()
    page.wait_for_url(f"{base}{next_url}")
