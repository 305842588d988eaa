"""`parley check --report html` as a person sees it, in headless Chromium: summary counts equal
the JSON Lines report's, every filter narrows the table to the rows JSON Lines names, rows expand
to their previews, inline images load, a hostile recording runs no script, the 10,000-exchange
page is interactive within 2 s, the accessibility basics hold, and a `parley check --openapi`
report shows each violated schema path beside the offending value.
"""
import collections, re, time

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SCREENSHOTS, chrome

REPORTS = ["recorded", "failing", "hostile", "corpus", "contract"]


def load(browser, report):
    browser.get(report.url)
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.documentElement.hasAttribute('data-ready')"))
    browser.get_log("browser")  # start each test from an empty console log


def key(record):
    return f"{record['file']}#{record['index']}"


def shown_keys(browser):
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('#exchanges tbody[data-row] tr.main th')).map(function(t){return t.textContent;});")


def matched(browser):
    return int(browser.find_element(By.ID, "shown").get_attribute("data-matched"))


def all_matching_keys(browser):
    """The keys of every matching row, page by page."""
    keys = shown_keys(browser)
    while browser.find_element(By.ID, "next").is_enabled() and not browser.find_element(By.ID, "pager").get_attribute("hidden"):
        browser.find_element(By.ID, "next").click()
        keys += shown_keys(browser)
    return keys


def choose(browser, select_id, value):
    Select(browser.find_element(By.ID, select_id)).select_by_value(value)


def reset(browser):
    for select_id in ["f-outcome", "f-kind", "f-format", "f-status"]:
        choose(browser, select_id, "")
    browser.find_element(By.ID, "f-text").clear()
    browser.execute_script("document.getElementById('f-text').dispatchEvent(new Event('input'))")


def status_class(status):
    return str(status // 100) if 100 <= status < 600 else "other"


@pytest.mark.parametrize("name", REPORTS)
def test_summary_counts_equal_the_json_lines_report(browser, reports, name):
    report = reports[name]
    load(browser, report)
    browser.set_window_size(1400, 1600)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    summary = report.summary
    count = lambda selector: int(browser.find_element(By.CSS_SELECTOR, selector).text)
    assert count("td[data-outcome=ok]") == summary["ok"]
    assert count("td[data-outcome=warning]") == summary["warnings"]
    assert count("td[data-outcome=error]") == summary["errors"]
    assert count("[data-count=exchanges]") == summary["exchanges"]
    assert count("[data-count=recordings]") == summary["recordings"]
    assert count("[data-count=unreadable_files]") == summary["unreadable_files"]
    kinds = {cell.get_attribute("data-kind"): int(cell.text) for cell in browser.find_elements(By.CSS_SELECTOR, "td[data-kind]")}
    assert kinds == summary["findings"]
    assert matched(browser) == summary["exchanges"] == len(report.exchanges)
    # The first page lists the first exchanges in input order.
    assert shown_keys(browser) == [key(r) for r in report.exchanges[:100]]


@pytest.mark.parametrize("name", REPORTS)
def test_every_filter_narrows_the_table_to_the_right_rows(browser, reports, name):
    report = reports[name]
    load(browser, report)
    records = report.exchanges
    filters = [("f-outcome", o, lambda r, o=o: r["outcome"] == o) for o in ["ok", "warning", "error"]]
    kinds = sorted({f["kind"] for r in records for f in r["findings"]})
    filters += [("f-kind", k, lambda r, k=k: any(f["kind"] == k for f in r["findings"])) for k in kinds]
    formats = sorted({r["format"] for r in records if r["format"]})
    filters += [("f-format", f, lambda r, f=f: r["format"] == f) for f in formats]
    filters += [("f-status", c, lambda r, c=c: status_class(r["status"]) == c) for c in ["1", "2", "3", "4", "5", "other"]]
    # Every option the page offers is one of these: no filter goes untested.
    offered = {(s, o.get_attribute("value")) for s in ["f-outcome", "f-kind", "f-format", "f-status"]
               for o in browser.find_element(By.ID, s).find_elements(By.TAG_NAME, "option") if o.get_attribute("value")}
    assert offered == {(s, v) for s, v, _ in filters}
    for select_id, value, wanted in filters:
        reset(browser)
        choose(browser, select_id, value)
        expected = [key(r) for r in records if wanted(r)]
        assert matched(browser) == len(expected), (select_id, value)
        if len(expected) <= 300:
            assert all_matching_keys(browser) == expected, (select_id, value)
        else:
            assert shown_keys(browser) == expected[:100], (select_id, value)
    # Text search over file and URL, and two filters at once.
    reset(browser)
    needle = records[len(records) // 2]["file"].rsplit("/", 1)[-1][:12].lower()
    field = browser.find_element(By.ID, "f-text")
    field.send_keys(needle)
    expected = [key(r) for r in records if needle in (key(r) + " " + r["url"]).lower()]
    assert expected and matched(browser) == len(expected)
    assert shown_keys(browser) == expected[:100]
    reset(browser)
    choose(browser, "f-status", "2")
    choose(browser, "f-outcome", "ok")
    assert matched(browser) == sum(1 for r in records if status_class(r["status"]) == "2" and r["outcome"] == "ok")
    reset(browser)


def test_expanding_a_row_shows_its_preview(browser, reports):
    load(browser, reports["failing"])
    # The HTML error page labelled JSON: label against what it is, and the page as text.
    row = browser.find_element(By.XPATH, "//tbody[.//th[contains(., 'html-error-page-as-json.yml#0')]]")
    summary = row.find_element(By.CSS_SELECTOR, "tr.more summary")
    summary.send_keys(Keys.ENTER)  # the keyboard opens it
    detail = row.find_element(By.CSS_SELECTOR, ".detail")
    assert detail.is_displayed()
    mislabel = detail.find_element(By.CSS_SELECTOR, ".mislabel").text
    assert "application/json" in mislabel and "text/html" in mislabel
    assert "<html" in detail.find_element(By.CSS_SELECTOR, "pre.text").text.lower()
    assert "Content-Type" in detail.text

    # A row past the first page: its preview is filled in when it is first opened.
    load(browser, reports["corpus"])
    browser.find_element(By.ID, "next").click()
    row = browser.find_element(By.CSS_SELECTOR, "#exchanges tbody[data-row='100']")
    row.find_element(By.CSS_SELECTOR, "tr.more summary").click()
    WebDriverWait(browser, 5).until(lambda d: row.find_elements(By.CSS_SELECTOR, ".detail ul.tree"))
    assert "Decoded by json" in row.find_element(By.CSS_SELECTOR, ".detail").text


def test_a_contract_report_shows_the_violated_schema_path_and_the_offending_value(browser, reports):
    report = reports["contract"]
    load(browser, report)
    # What the JSON Lines report says is wrong with each exchange of books.har, by index.
    expected = [[(f.get("instance_path"), f.get("schema_path")) for f in r["findings"] if f["kind"] == "contract-body"]
                for r in report.exchanges]
    schema = "#/paths/~1books~1{id}/get/responses/200/content/application~1json/schema/properties"
    assert expected[:3] == [[], [("/title", schema + "/title/type")], [("/isbn", schema + "/isbn/pattern")]]
    assert [f["kind"] for f in report.exchanges[3]["findings"]] == ["contract-no-operation"]
    for index, wanted in [(1, ["451"]), (2, ['"ISBN-0441569595"'])]:
        row = browser.find_element(By.XPATH, f"//tbody[.//th[contains(., 'books.har#{index}')]]")
        row.find_element(By.CSS_SELECTOR, "tr.more summary").click()
        table = row.find_element(By.CSS_SELECTOR, ".detail table.contract")
        assert table.is_displayed()
        assert table.find_element(By.TAG_NAME, "caption").text == "Contract violations"
        rows = table.find_elements(By.CSS_SELECTOR, ":scope > tbody > tr")
        shown = [(r.find_element(By.CSS_SELECTOR, "code.instance-path").text,
                  r.find_element(By.CSS_SELECTOR, "code.schema-path").text,
                  r.find_element(By.CSS_SELECTOR, "code.offending-value").text) for r in rows]
        assert [(path, schema_path) for path, schema_path, _ in shown] == expected[index]
        assert [value for _, _, value in shown] == wanted
        # The offending value is marked in the body preview beside the table.
        marked = row.find_elements(By.CSS_SELECTOR, ".detail ul.tree li.diff")
        assert marked and all(m.is_displayed() for m in marked) and wanted[0] in marked[0].text
    # A conforming exchange has no table.
    row = browser.find_element(By.XPATH, "//tbody[.//th[contains(., 'books.har#0')]]")
    row.find_element(By.CSS_SELECTOR, "tr.more summary").click()
    assert row.find_elements(By.CSS_SELECTOR, ".detail table.contract") == []
    browser.set_window_size(1400, 1600)
    browser.save_screenshot(str(SCREENSHOTS / "contract-expanded.png"))


def test_snapshot_mismatch_shows_expected_and_actual_side_by_side(browser, reports):
    load(browser, reports["hostile"])
    row = browser.find_element(By.XPATH, "//tbody[.//th[contains(., 'hostile.har#1')]]")
    row.find_element(By.CSS_SELECTOR, "tr.more summary").click()
    sides = row.find_elements(By.CSS_SELECTOR, ".side section")
    assert [s.find_element(By.TAG_NAME, "h5").text for s in sides] == ["Expected (subset snapshot)", "Actual"]
    # The differing paths are marked on both sides and shown open: $.<payload key> (another value),
    # $.nested.deeper.deepest (another length) and its element [1].
    for side in sides:
        marked = side.find_elements(By.CSS_SELECTOR, "li.diff")
        assert len(marked) == 3 and all(m.is_displayed() for m in marked), side.text
        assert "alert('x')" in marked[0].text and "deepest" in marked[1].text and marked[2].text.startswith("[1]")


def test_inline_images_load(browser, reports):
    load(browser, reports["recorded"])
    for summary in browser.find_elements(By.CSS_SELECTOR, "tr.more > td > details > summary"):
        summary.click()
    images = browser.find_elements(By.CSS_SELECTOR, "figure.image img")
    assert len(images) >= 2  # the PNG avatar and the GIF pixel
    WebDriverWait(browser, 5).until(lambda d: all(d.execute_script("return arguments[0].complete", i) for i in images))
    for image in images:
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 0
        assert image.get_attribute("src").startswith("data:image/")
    captions = " ".join(f.text for f in browser.find_elements(By.CSS_SELECTOR, "figure.image figcaption"))
    assert re.search(r"png, \d+ × \d+", captions) and re.search(r"gif, \d+ × \d+", captions)
    browser.save_screenshot(str(SCREENSHOTS / "recorded-expanded.png"))


def test_the_hostile_recording_runs_no_script(reports):
    report = reports["hostile"]
    driver = chrome()
    try:
        driver.get(report.url)
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.documentElement.hasAttribute('data-ready')"))
        for summary in driver.find_elements(By.CSS_SELECTOR, "tr.more > td > details > summary"):
            summary.click()
        time.sleep(0.5)
        with pytest.raises(NoAlertPresentException):
            driver.switch_to.alert.text
        logs = driver.get_log("browser")
        assert [entry for entry in logs if entry["level"] in ("SEVERE", "WARNING")] == []
        # Only the page's own script and its data blocks; no handler attributes, no script URLs.
        scripts = driver.execute_script(
            "return Array.from(document.scripts).map(function(s){return s.type || 'classic';});")
        assert scripts.count("classic") == 1
        assert driver.execute_script(
            "return Array.from(document.querySelectorAll('*')).filter(function(e){return Array.from(e.attributes)"
            ".some(function(a){return /^on/i.test(a.name) || /javascript:/i.test(a.value);});}).length") == 0
        assert driver.find_elements(By.TAG_NAME, "textarea") == [] and driver.find_elements(By.TAG_NAME, "a[href^='javascript']") == []
        text = driver.find_element(By.TAG_NAME, "body").text
        assert "<script>alert('x')</script>" in text and "javascript:alert(document.domain)" in text
        assert "\\u{202E}evil" in text  # a bidirectional override shows as an escape, reordering nothing
        assert driver.find_elements(By.CSS_SELECTOR, "figure.image img[src^='data:image/png']")
        assert not driver.find_elements(By.CSS_SELECTOR, "img[src*='svg']")
        driver.set_window_size(1400, 2400)
        driver.save_screenshot(str(SCREENSHOTS / "hostile-expanded.png"))
    finally:
        driver.quit()


def test_the_10000_exchange_page_is_interactive_within_2_seconds(reports, timings):
    report = reports["corpus"]
    assert len(report.exchanges) >= 10_000
    driver = chrome()
    try:
        started = time.monotonic()
        driver.get(report.url)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.documentElement.hasAttribute('data-ready')"))
        loaded = time.monotonic() - started
        ready = float(driver.execute_script("return document.documentElement.getAttribute('data-ready')"))
        init = float(driver.execute_script("return document.documentElement.getAttribute('data-init-ms')"))
        # Time to the first filter response: a filter changed, the table redrawn.
        filter_ms = driver.execute_script(
            "var s=performance.now();var f=document.getElementById('f-status');f.value='2';"
            "f.dispatchEvent(new Event('change'));var n=document.querySelectorAll('#exchanges tbody[data-row]').length;"
            "return [performance.now()-s, n];")
        search_ms = driver.execute_script(
            "var s=performance.now();var f=document.getElementById('f-text');f.value='recording-0999';"
            "f.dispatchEvent(new Event('input'));return performance.now()-s;")
        timings["corpus"] = {"exchanges": len(report.exchanges), "report_bytes": report.size,
                             "parley_check_html_seconds": round(report.seconds, 2),
                             "ready_ms_since_navigation": round(ready), "script_init_ms": round(init),
                             "first_filter_ms": round(filter_ms[0], 1), "search_ms": round(search_ms, 1),
                             "webdriver_load_seconds": round(loaded, 2)}
        for name in ["recorded", "failing", "hostile"]:
            timings[name] = {"report_bytes": reports[name].size, "parley_check_html_seconds": round(reports[name].seconds, 2)}
        assert filter_ms[1] == 100
        assert ready + filter_ms[0] < 2000, timings["corpus"]
    finally:
        driver.quit()


def test_accessibility_basics(browser, reports):
    load(browser, reports["failing"])
    headers = browser.find_elements(By.CSS_SELECTOR, "#exchanges thead th")
    assert len(headers) == 8 and all(h.get_attribute("scope") == "col" for h in headers)
    assert all(h.get_attribute("scope") == "row" for h in browser.find_elements(By.CSS_SELECTOR, "#exchanges tr.main th"))
    for control in browser.find_elements(By.CSS_SELECTOR, "#filters select, #filters input"):
        label = browser.execute_script("return arguments[0].labels.length ? arguments[0].labels[0].textContent : ''", control)
        assert label.strip(), control.get_attribute("id")
    # Rows are reached with the keyboard: Tab from the search field lands on the first row's summary.
    browser.find_element(By.ID, "f-text").click()
    browser.switch_to.active_element.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.tag_name == "summary"
    assert browser.execute_script("return arguments[0].closest('tbody').getAttribute('data-row')", focused) == "0"
    focused.send_keys(Keys.ENTER)
    assert browser.execute_script("return document.activeElement.parentElement.open") is True
    # Outcome colours: text against its background at WCAG AA (4.5:1) or better.
    def luminance(rgb):
        channels = [c / 255 for c in rgb]
        channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    def rgb(text):
        return [int(x) for x in re.findall(r"\d+", text)[:3]]
    checked = collections.Counter()
    for element in browser.find_elements(By.CSS_SELECTOR, ".badge, .verdict"):
        fg = rgb(element.value_of_css_property("color"))
        bg = rgb(element.value_of_css_property("background-color"))
        lighter, darker = sorted([luminance(fg), luminance(bg)], reverse=True)
        ratio = (lighter + 0.05) / (darker + 0.05)
        assert ratio >= 4.5, (element.get_attribute("class"), ratio)
        checked[element.get_attribute("class")] += 1
    assert {"badge ok", "badge warning", "badge error", "verdict failed"} <= set(checked)


def test_without_javascript_the_summary_and_table_render(reports):
    driver = chrome(javascript=False)
    try:
        report = reports["recorded"]
        driver.get(report.url)
        assert int(driver.find_element(By.CSS_SELECTOR, "td[data-outcome=ok]").text) == report.summary["ok"]
        rows = driver.find_elements(By.CSS_SELECTOR, "#exchanges tbody[data-row]")
        assert len(rows) == len(report.exchanges)
        assert not driver.find_element(By.ID, "filters").is_displayed()
        rows[4].find_element(By.CSS_SELECTOR, "summary").click()
        assert rows[4].find_element(By.CSS_SELECTOR, "figure.image img").is_displayed()
        driver.save_screenshot(str(SCREENSHOTS / "recorded-no-javascript.png"))
        corpus = reports["corpus"]
        driver.get(corpus.url)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#exchanges tbody[data-row]")) == 100
        assert "first 100 of 10,000" in driver.find_element(By.TAG_NAME, "noscript").get_attribute("textContent")
    finally:
        driver.quit()
