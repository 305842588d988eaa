"""Shared set-up of the browser tests: the parley binary, the reports it renders (with the JSON
Lines report of the same input to compare with), and one headless Chromium per session.

Artifacts go to .build-browser/ (reports, screenshots/, timings.json); nothing else is written.
"""
import json, os, subprocess, sys, time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / ".build-browser"
SCREENSHOTS = OUT / "screenshots"
CORPUS = OUT / "corpus-10000"
CORPUS_FILES = 10_000


def parley_binary():
    if os.environ.get("PARLEY_BIN"):
        return os.environ["PARLEY_BIN"]
    path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "parley")


class Report:
    """One rendered report and the JSON Lines records of the same check."""

    def __init__(self, name, paths, options=()):
        self.name = name
        self.html = OUT / f"{name}.html"
        binary = parley_binary()
        started = time.monotonic()
        run = subprocess.run([binary, "check", *paths, *options, "--report", "html", "--output", str(self.html)],
                             cwd=ROOT, capture_output=True, text=True)
        self.seconds = time.monotonic() - started
        assert run.returncode in (0, 1, 2), run.stderr
        lines = subprocess.run([binary, "check", *paths, *options, "--report", "json"], cwd=ROOT, capture_output=True,
                               text=True)
        records = [json.loads(line) for line in lines.stdout.splitlines() if line.strip()]
        self.exchanges = [r for r in records if r["type"] == "exchange"]
        self.summary = next(r for r in records if r["type"] == "summary")
        self.url = self.html.as_uri()

    @property
    def size(self):
        return self.html.stat().st_size


def make_corpus():
    marker = CORPUS / ".complete"
    if marker.exists():
        return
    # About 1 kB per file: each file holds exactly one exchange.
    subprocess.run([sys.executable, str(ROOT / "Benchmarks/Scripts/make-recorded-corpus.py"), str(CORPUS),
                    "--files", str(CORPUS_FILES), "--megabytes", "10"], check=True, capture_output=True)
    marker.write_text("ok")


class Reports:
    """The reports by name, each rendered when a test first asks for it (so `-k contract` renders
    only the contract report)."""

    def __init__(self):
        self.built = {}

    def __getitem__(self, name):
        if name not in self.built:
            self.built[name] = self.render(name)
        return self.built[name]

    @staticmethod
    def render(name):
        if name == "corpus":
            make_corpus()
            return Report("corpus", [str(CORPUS.relative_to(ROOT))])
        if name == "contract":
            # `parley check --openapi`: the contract violations table of each failing exchange.
            return Report("contract", ["Tests/Browser/contract/recordings"],
                          ["--openapi", "Tests/Browser/contract/openapi.yaml"])
        folders = {"recorded": "Fixtures/recorded", "failing": "Fixtures/failing", "hostile": "Tests/Browser/hostile"}
        return Report(name, [folders[name]])


@pytest.fixture(scope="session")
def reports():
    OUT.mkdir(exist_ok=True)
    SCREENSHOTS.mkdir(exist_ok=True)
    return Reports()


def chrome(javascript=True):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--allow-file-access-from-files"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


@pytest.fixture(scope="session")
def browser():
    driver = chrome()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def timings():
    figures = {}
    yield figures
    OUT.mkdir(exist_ok=True)
    (OUT / "timings.json").write_text(json.dumps(figures, indent=2))
    print("\nbrowser-test figures: " + json.dumps(figures))
