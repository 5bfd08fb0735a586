"""The web client's Analytics view in a real browser (headless Chromium through Selenium, as
test_browser.py): a population of sessions is driven beside the page, the view asks for the admin
token once (a wrong one is refused and asked again), then draws the funnel and the screens table
as SVG with the server's own figures; and the coffee app's experiments. Takes web-analytics.png
and web-experiments.png, the screenshots the README shows (into docs/ on request: see
test_browser.py).
"""
import time

from selenium.webdriver.common.by import By

from conftest import APPS, RunningServer
from experiment_population import drive as drive_people
from population import drive
from test_browser import browser, console_problems, save_screenshot, wait_for  # noqa: F401 (the browser fixture)

ADMIN = "browser-admin"


def test_the_analytics_view_draws_the_funnel_and_the_screens(browser, tmp_path):  # noqa: F811
    clock = tmp_path / "clock-offset"
    clock.write_text("0")
    server = RunningServer("--app", str(APPS / "tabs.json"), "--admin-token", ADMIN, "--rate-limit", "0", "--clock-offset-file", str(clock))
    try:
        def think(rng):
            """People spend a few seconds to a minute on a screen: the server clock moves on."""
            clock.write_text(str(float(clock.read_text()) + rng.uniform(2, 60)))
            time.sleep(0.06)

        expected = drive([server.url], sessions=60, seed=3, think=think)
        browser.get(server.url + "/")
        wait_for(lambda: browser.execute_script("return document.documentElement.dataset.ready === 'true'"), "the page")
        css = lambda selector: browser.find_elements(By.CSS_SELECTOR, selector)  # noqa: E731

        css('[data-testid="analytics-open"]')[0].click()
        wait_for(lambda: css('[data-testid="analytics-token-form"]')[0].is_displayed(), "the token form")
        css('[data-testid="analytics-token"]')[0].send_keys("not-the-token")
        css('[data-testid="analytics-token-go"]')[0].click()
        wait_for(lambda: "not the admin token" in css('[data-testid="analytics-message"]')[0].text, "the refusal")
        css('[data-testid="analytics-token"]')[0].send_keys(ADMIN)
        css('[data-testid="analytics-token-go"]')[0].click()
        wait_for(lambda: css('[data-testid="funnel-bar"]'), "the funnel")

        # The chart is SVG, its bars the server's funnel; the table the server's screens. The page's
        # own session, made when it opened, shows home and account too.
        expected["funnel"][0] += 1
        expected["shown"].update(["home", "account"])
        bars = css('[data-testid="analytics-funnel"] [data-testid="funnel-bar"]')
        assert [bar.get_attribute("data-screen") for bar in bars] == ["home", "profile", "followers"]
        assert [int(bar.get_attribute("data-sessions")) for bar in bars] == expected["funnel"]
        assert browser.execute_script("return document.querySelector('[data-testid=analytics-funnel]') instanceof SVGSVGElement")
        rows = {row.get_attribute("data-screen"): row for row in css('[data-testid="analytics-screens"] tbody tr')}
        assert {screen: int(row.find_element(By.CSS_SELECTOR, '[data-testid="screen-shown"]').text) for screen, row in rows.items()} \
            == dict(expected["shown"])
        assert "pop" in rows["profile"].find_element(By.CSS_SELECTOR, '[data-testid="screen-exits"]').text
        assert rows["profile"].find_elements(By.CSS_SELECTOR, "svg.exit-bar rect")

        # Asked once: closing and opening again needs no token; the figures follow new sessions.
        css('[data-testid="analytics-close"]')[0].click()
        loaded = css('[data-testid="analytics-view"]')[0].get_attribute("data-loaded")
        drive([server.url], sessions=10, seed=4)
        css('[data-testid="analytics-open"]')[0].click()
        wait_for(lambda: css('[data-testid="analytics-view"]')[0].get_attribute("data-loaded") != loaded, "the view again")
        assert not css('[data-testid="analytics-token-form"]')[0].is_displayed()
        wait_for(lambda: int(css('[data-testid="funnel-bar"]')[0].get_attribute("data-sessions")) == expected["funnel"][0] + 10,
                 "the new sessions")

        time.sleep(0.3)
        save_screenshot(browser, "web-analytics.png")
        assert console_problems(browser, server, provoked=[("/screens", 401), ("/funnel", 401)]) == []
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_the_analytics_view_draws_each_experiment_with_its_intervals_and_ratio_check(browser):  # noqa: F811
    """The coffee app's experiments after a seeded population: each variant's rate on its interval,
    the lifts, the cumulative conversion and the ratio check, as the server counted them. Takes
    web-experiments.png."""
    server = RunningServer("--app", str(APPS / "coffee.json"), "--admin-token", ADMIN, "--rate-limit", "0")
    try:
        drive_people([server.url], people=400, seed=7)
        browser.get(server.url + "/")
        wait_for(lambda: browser.execute_script("return document.documentElement.dataset.ready === 'true'"), "the page")
        css = lambda selector: browser.find_elements(By.CSS_SELECTOR, selector)  # noqa: E731
        css('[data-testid="analytics-open"]')[0].click()
        wait_for(lambda: css('[data-testid="analytics-token-form"]')[0].is_displayed(), "the token form")
        css('[data-testid="analytics-token"]')[0].send_keys(ADMIN)
        css('[data-testid="analytics-token-go"]')[0].click()
        wait_for(lambda: len(css('[data-testid="experiment"]')) == 2, "the experiments")

        for section in css('[data-testid="experiment"]'):
            key = section.get_attribute("data-experiment")
            status, _, results = server.request("GET", f"/v1/admin/experiments/{key}", token=ADMIN)
            assert status == 200
            srm = section.find_element(By.CSS_SELECTOR, '[data-testid="experiment-srm"]')
            assert srm.get_attribute("data-flagged") == str(results["sampleRatio"]["flagged"]).lower() and "Ratio check" in srm.text
            metrics = {metric.get_attribute("data-metric"): metric for metric in section.find_elements(By.CSS_SELECTOR, '[data-testid="experiment-metric"]')}
            assert list(metrics) == [metric["name"] for metric in results["metrics"]]
            for metric in results["metrics"]:
                drawn = {dot.get_attribute("data-variant"): dot for dot in metrics[metric["name"]].find_elements(By.CSS_SELECTOR, '[data-testid="variant-rate"]')}
                for variant in metric["variants"]:
                    if variant["rateInterval"] is None:
                        continue
                    dot = drawn[variant["name"]]
                    assert float(dot.get_attribute("data-rate")) == variant["rate"]
                    assert [float(dot.get_attribute("data-low")), float(dot.get_attribute("data-high"))] == variant["rateInterval"]
                    # The dot lies on its interval.
                    assert browser.execute_script("return arguments[0] instanceof SVGCircleElement", dot)
                lifts = metrics[metric["name"]].find_elements(By.CSS_SELECTOR, '[data-testid="variant-lift"]')
                assert [lift.get_attribute("data-variant") for lift in lifts] == [v["name"] for v in metric["variants"] if v["lift"]]
                lines = metrics[metric["name"]].find_elements(By.CSS_SELECTOR, '[data-testid="experiment-timeline"] polyline')
                assert {line.get_attribute("data-variant") for line in lines} == {v["name"] for v in metric["variants"] if v["units"]}
        # The short onboarding's lift, built in, is drawn as significant.
        onboarded = css('[data-experiment="short-onboarding"] [data-metric="onboarded"] [data-testid="variant-lift"]')[0]
        assert "significant" in onboarded.get_attribute("class") and "Holm" in onboarded.text

        browser.execute_script("arguments[0].scrollIntoView()", css('[data-testid="analytics-experiments"]')[0])
        save_screenshot(browser, "web-experiments.png")
        assert console_problems(browser, server) == []
    finally:
        assert server.stop() == 0, "".join(server.log)
