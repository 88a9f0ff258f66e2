#!/usr/bin/env bash
# Makes sure the end-to-end tests have a Chromium to drive. Playwright cannot download its own
# browser on closed-network machines, so a system Chromium is used when present; otherwise
# Debian's package is installed (when we are root and apt-get exists); otherwise Playwright's
# managed browser is used if it is installed, or we say how to get one.
set -euo pipefail
for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "ensure-browser: using $candidate"
    exit 0
  fi
done
if ls "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1; then
  echo "ensure-browser: using Playwright's managed Chromium"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "ensure-browser: installing Debian's chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "ensure-browser: no Chromium found. Install one (apt-get install chromium, or npx playwright install chromium) or set CHROMIUM_PATH." >&2
exit 1
