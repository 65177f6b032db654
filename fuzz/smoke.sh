#!/usr/bin/env bash
# A short run of every fuzz target (see docs/security.md, "Fuzzing"): builds them all, then
# runs each from the committed seeds for a bounded time and number of executions. Any crash,
# panic or property violation fails the script and leaves the input in fuzz/artifacts/TARGET/.
#
#   STOLIK_FUZZ_SECONDS  seconds per target (default 15)
#   STOLIK_FUZZ_RUNS     executions per target at most (default 200000)
set -euo pipefail
cd "$(dirname "$0")/.."

# cargo-fuzz passes nightly-only flags (-Zsanitizer, the coverage passes); the stable
# toolchain accepts them under RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1
seconds="${STOLIK_FUZZ_SECONDS:-15}"
runs="${STOLIK_FUZZ_RUNS:-200000}"
# `-a`: debug assertions and overflow checks on, so an overflow is a crash, not a wrap.
# `-s none`: no AddressSanitizer. Every crate of the workspace forbids unsafe code, so ASan
# could only watch the dependencies, while it doubles the build time and slows the engine
# targets about sixfold.
build_flags=(-a -s none)

logs=fuzz/target/smoke
mkdir -p "$logs"
start=$SECONDS
cargo fuzz build "${build_flags[@]}"
echo "fuzz: built in $((SECONDS - start)) s"

passed=0
failed=0
for target in $(cargo fuzz list); do
  # New inputs go to a scratch corpus so that every smoke run starts from the same seeds and
  # takes the same time; fuzz/corpus/ is for longer runs.
  scratch="$(mktemp -d)"
  log="$logs/$target.log"
  # The engine targets play one step per input byte: long inputs from the start reach deep
  # positions (libFuzzer otherwise grows the length limit slowly from the seeds' size).
  case "$target" in
    ws_request | referee) length=() ;;
    *) length=(-max_len=1024 -len_control=0) ;;
  esac
  if cargo fuzz run "${build_flags[@]}" "$target" "$scratch" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -runs="$runs" -timeout=30 -print_final_stats=1 "${length[@]}" \
    >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "fuzz $target: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 | tr -s '[:space:]' ' ')"
  else
    failed=$((failed + 1))
    echo "fuzz $target: FAILED (log: $log; input in fuzz/artifacts/$target/)" >&2
    tail -n 40 "$log" >&2
  fi
  rm -rf "$scratch"
done
echo "fuzz smoke took $((SECONDS - start)) s"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
