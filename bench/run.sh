#!/usr/bin/env bash
# The full benchmark run recorded in docs/performance.md (about 15 minutes on 2 cores).
set -euo pipefail
gmtool bench --tables 20 --phones 8 --seconds 20 --warmup 5 --pace 1.0 --minutes 10
gmtool bench --crash 100
