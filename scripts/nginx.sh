#!/usr/bin/env bash
# Installs Debian's nginx (/usr/sbin/nginx) for the proxy test in
# tests/realworld when it is missing and this machine can: apt-get, as root or
# through passwordless sudo. Never a download of its own. The package's own
# service is not needed: the test starts nginx itself from deploy/nginx.conf,
# so a service the package started is stopped again. Prints what it did and
# never fails the build by itself: the proxy test decides what a missing nginx
# means (a failure under CI=true, a skip elsewhere).
set -u

if [ -x /usr/sbin/nginx ]; then
    echo "nginx: $(/usr/sbin/nginx -v 2>&1)."
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "nginx: missing, and no apt-get here; the proxy test needs /usr/sbin/nginx."
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "nginx: missing; run 'apt-get install nginx' as root."
    exit 0
fi
echo "nginx: installing Debian's nginx package..."
# policy-rc.d answers 101 ("not allowed"), so the package does not start the
# system-wide nginx on port 80: the test runs its own.
policy=/usr/sbin/policy-rc.d
made_policy=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
    made_policy=1
fi
if $sudo apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nginx; then
    echo "nginx: $(/usr/sbin/nginx -v 2>&1)."
else
    echo "nginx: the installation failed." >&2
fi
if [ -n "$made_policy" ]; then
    $sudo rm -f "$policy"
fi
exit 0
