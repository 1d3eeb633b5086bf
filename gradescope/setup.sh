#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image, with the zip unpacked
# in /autograder/source. It needs the network: Node 24 from NodeSource's packages (as the workflow
# grades; Node 22 ends on 2027-04-30), git (for the git-backed stretch goal), and the grader's
# pinned packages through npm ci.
set -euo pipefail

NODE_MAJOR=24

apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg git
curl -fsSL "https://deb.nodesource.com/setup_${NODE_MAJOR}.x" | bash -
apt-get install -y --no-install-recommends nodejs
node --version

cd /autograder/source
npm ci --no-audit --no-fund
# A zip does not always keep the executable bit.
chmod +x /autograder/source/run_autograder
