#!/usr/bin/env bash
# Installs Debian's Chromium (/usr/bin/chromium) for the browser tests when it
# is missing and this machine can: apt-get, as root or through passwordless
# sudo. Never a browser download of its own. Prints what it did and never
# fails the build by itself: the browser tests decide what a missing browser
# means (a failure under CI=true, a skip elsewhere).
# With it, a Thai font (fonts-thai-tlwg): Chromium brings none, and without
# one the Thai table's screenshot shows empty boxes instead of text.
set -u

thai_font() {
    command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=th 2>/dev/null)" ]
}

if [ -x /usr/bin/chromium ] && thai_font; then
    echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed), with a Thai font."
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "Chromium or a Thai font: missing, and no apt-get here; the browser tests need /usr/bin/chromium."
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "Chromium or a Thai font: missing; run 'apt-get install chromium fonts-thai-tlwg' as root."
    exit 0
fi
echo "Chromium: installing Debian's chromium and fonts-thai-tlwg packages..."
if $sudo apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-thai-tlwg; then
    echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)."
else
    echo "Chromium: the installation failed." >&2
fi
exit 0
