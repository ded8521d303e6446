"""A real headless Chromium (Debian's, driven by Debian's chromedriver) for the admin tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WIDTH, HEIGHT = 1400, 900
# Each run's screenshots go under run/ (not versioned); docs/screenshots holds the copies the
# README shows, refreshed by hand from a run (`cp run/screenshots/*.png docs/screenshots/`).
SCREENSHOTS = Path(__file__).resolve().parent.parent / "run" / "screenshots"


def start_chromium() -> webdriver.Chrome:
    """A headless Chromium 1400 px wide; a missing browser fails the test, naming the fix."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} missing: install Debian's chromium and chromium-driver "
            "with scripts/ensure_chromium.sh",
            pytrace=False,
        )
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never fetches a browser of its own
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


class AdminPages:
    """The admin of one running server, as a user in the browser sees it."""

    def __init__(self, driver: webdriver.Chrome, base_url: str) -> None:
        self.driver, self.base_url = driver, base_url

    def open(self, path: str) -> None:
        self.driver.get(self.base_url + path)

    def log_in(self, username: str, password: str) -> None:
        self.driver.delete_all_cookies()
        self.open("/admin/login/")
        self.driver.find_element(By.ID, "id_username").send_keys(username)
        self.driver.find_element(By.ID, "id_password").send_keys(password)
        self.submit("input[type=submit]")

    def submit(self, css: str) -> None:
        """Click the button and wait for the page it sends: reading the page before the new
        one replaced it finds the old page's elements, gone by the time they are read."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.CSS_SELECTOR, css).click()
        # Asked while the new page replaces it, Chromium may answer "Node with given id does
        # not belong to the document" instead of "stale": asked again, it says stale.
        wait = WebDriverWait(self.driver, 20, ignored_exceptions=(WebDriverException,))
        wait.until(staleness_of(page))

    def text(self, css: str) -> str:
        return self.driver.find_element(By.CSS_SELECTOR, css).text

    def run_action(self, action: str, object_id: object) -> None:
        """Tick one row of the list on screen and run one of its actions."""
        self.driver.find_element(
            By.CSS_SELECTOR, f"input.action-select[value='{object_id}']"
        ).click()
        Select(self.driver.find_element(By.NAME, "action")).select_by_value(action)
        self.submit("button[name=index]")

    def offered_actions(self) -> list[str]:
        """The actions the list's menu offers (none when the list has no menu)."""
        options = self.driver.find_elements(By.CSS_SELECTOR, "select[name=action] option")
        return [option.get_attribute("value") for option in options]

    def post_by_hand(self, path: str, fields: list[tuple[str, str]]) -> int:
        """A POST the page never offered, made from the logged-in browser with its CSRF
        token, as a user would craft it; the status of the answer (redirects not followed:
        0 for one)."""
        script = """
            const [path, fields, done] = arguments;
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            fetch(path, {method: "POST", body: new URLSearchParams(fields), redirect: "manual",
                         headers: {"X-CSRFToken": token}}).then(answer => done(answer.status));
        """
        return self.driver.execute_async_script(script, path, fields)

    def column(self, name: str) -> list[str]:
        """The cells of one column of the result list, top to bottom."""
        cells = self.driver.find_elements(By.CSS_SELECTOR, f"#result_list .field-{name}")
        return [cell.text for cell in cells]

    def fits_the_window(self) -> bool:
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        return width <= WIDTH

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path
