"""Headless Chromium for the tests that look at pages as a browser lays them out, driven by
selenium with the driver Debian installs (nothing is downloaded)."""

from __future__ import annotations

import os

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE, DESKTOP = (390, 844), (1280, 900)


def installed() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def start_browser(width: int = 1280, height: int = 1000):
    """Headless Chromium driven by selenium, with the driver Debian installs (nothing is
    downloaded), logging the page's console."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def emulate(driver, size: tuple[int, int] | None, scale: int = 1) -> None:
    """Lay pages out as a device of ``size`` (a phone is narrower than Chromium's smallest
    window), or as the window again with None."""
    if size is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": scale, "mobile": width < 720})
