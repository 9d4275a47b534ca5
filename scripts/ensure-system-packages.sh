#!/usr/bin/env bash
# The Debian packages the test suites need: Chromium for the e2e suite, Kannel for the SMPP interop
# test, Net::SMPP (libnet-smpp-perl) for the inbound interop test. Missing ones are installed when this user may (root with apt-get); otherwise it stops at once
# with the exact command to run, before any test has started.
set -euo pipefail
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x "${KANNEL_BEARERBOX:-/usr/sbin/bearerbox}" ] || missing+=(kannel)
perl -MNet::SMPP -e 1 2>/dev/null || missing+=(libnet-smpp-perl)
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "npm test needs the Debian packages ${missing[*]}. Install them first:" >&2
  echo "  sudo sh -c '${command}'" >&2
  exit 1
fi
echo "== installing Debian packages: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
