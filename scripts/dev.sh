#!/usr/bin/env bash
# Rowkey's one entry point for a fresh Debian machine with Rust.
#
#   bash scripts/dev.sh serve   install what is missing, build, serve on http://127.0.0.1:8080
#   bash scripts/dev.sh test    install what is missing, run every test (native, browser, end-to-end)
#   bash scripts/dev.sh build   install what is missing, release build into dist/, check its size
#   bash scripts/dev.sh size [DIR]   the gzipped download of a build (dist/), against the budget
#   bash scripts/dev.sh bench-build   the release build with the benchmarks' hooks, into target/bench-dist/
#   bash scripts/dev.sh bench-wasm [ROWS] [LAYOUT]   the engine's reads in WebAssembly under Node
#   bash scripts/dev.sh setup   only install what is missing
#
# Every step checks first and skips what is already there; nothing but registry packages
# (crates.io, npm, Debian) is downloaded, and Trunk runs offline with the installed tools.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

TRUNK_VERSION=0.21.14
# The size budget: the most the download (the gzipped WebAssembly, as the page fetches it, the
# JavaScript and the page of a release build) may weigh, in KB; a build above it fails, and so
# does the test command's. ROWKEY_SIZE_BUDGET_KB overrides it.
SIZE_BUDGET_KB=${ROWKEY_SIZE_BUDGET_KB:-600}
# The release build's toolchain: a pinned nightly that compiles the standard library with the app
# (`-Z build-std`, optimized for size like the app) and makes a panic abort at once instead of
# formatting a message no page shows (`-C panic=immediate-abort`). Only the WebAssembly release
# builds use it (`release_trunk`); tests, benchmarks and the native CLI use the stable toolchain.
RELEASE_TOOLCHAIN=nightly-2026-05-20
log() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

debian_install() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

setup() {
  export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  if ! rustup run "$RELEASE_TOOLCHAIN" rustc --version >/dev/null 2>&1 \
     || [ ! -d "$(rustup run "$RELEASE_TOOLCHAIN" rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
    log "installing the release build's toolchain $RELEASE_TOOLCHAIN with its standard library's source"
    rustup toolchain install "$RELEASE_TOOLCHAIN" --profile minimal --component rust-src
  fi
  # `-Z build-std` resolves the standard library's own lockfile, and the release build runs
  # offline: its crates (compiler_builtins, libc, ...) must be in cargo's cache first. Once
  # they are, the offline fetch finds them there and the registry is not asked.
  local std_lock
  std_lock="$(rustup run "$RELEASE_TOOLCHAIN" rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
  if ! rustup run "$RELEASE_TOOLCHAIN" cargo fetch --quiet --offline --manifest-path "$std_lock" 2>/dev/null; then
    log "fetching the crates the release build's standard library is built from"
    rustup run "$RELEASE_TOOLCHAIN" cargo fetch --quiet --manifest-path "$std_lock"
  fi
  if ! command -v xz >/dev/null; then
    log "installing xz (Debian's xz-utils: the release build's WebAssembly is packed with it)"
    debian_install xz-utils
  fi
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    log "installing Chromium and ChromeDriver (Debian packages)"
    debian_install chromium chromium-driver
  fi
  local wbv; wbv=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wbv" ]; then
    log "installing wasm-bindgen-cli $wbv (matches Cargo.lock)"
    # The published lockfile of some versions names crates the registry no longer serves;
    # fall back to a fresh resolution of the same version then.
    cargo install wasm-bindgen-cli --version "$wbv" --locked \
      || cargo install wasm-bindgen-cli --version "$wbv"
  fi
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    log "installing trunk $TRUNK_VERSION"
    cargo install trunk --version "$TRUNK_VERSION" --locked \
      || cargo install trunk --version "$TRUNK_VERSION"
  fi
  # Reinstalled when the lockfile's content changed (not its date: a fresh checkout is newer
  # than any install, and `npm ci` empties node_modules first).
  local lock; lock=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
     || [ "$(cat node_modules/.rowkey-lock 2>/dev/null)" != "$lock" ]; then
    log "installing npm packages (binaryen's wasm-opt, playwright-core, axe-core)"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$lock" > node_modules/.rowkey-lock
  fi
}

# Runs a command with the release toolchain and its flags (RELEASE_TOOLCHAIN): the standard
# library built with the app and for size, panics that abort at once.
with_release_toolchain() {
  RUSTUP_TOOLCHAIN=$RELEASE_TOOLCHAIN \
    CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
    "$@"
}

# `trunk build --release --offline` with the release toolchain.
release_trunk() {
  with_release_toolchain trunk build --release --offline "$@"
}

build() {
  log "release build (trunk, offline, $RELEASE_TOOLCHAIN)"
  release_trunk
  minify_glue dist
  size dist
}

# Minifies the JavaScript glue wasm-bindgen writes (esbuild, an npm dev dependency; 11 -> 9 KB
# gzipped), shortens the names the glue and the WebAssembly know each other by and renumbers
# Rust's type ids (scripts/shrink.mjs; 8 and 7 KB gzipped), ships the WebAssembly as LZMA,
# which index.html's loader unpacks (scripts/pack.mjs, which writes the packed file's digest;
# 690 -> 530 KB), and puts the glue's new digest into index.html's integrity attribute.
# Trunk's own minifier cannot parse the glue's `export default`.
minify_glue() {
  local dir=$1 js wasm
  js=$(ls "$dir"/*.js | grep -v '/sw.js$' | head -1)
  wasm=$(ls "$dir"/*.wasm | head -1)
  esbuild "$js" --minify --format=esm --outfile="$js" --allow-overwrite --log-level=warning
  node scripts/shrink.mjs "$js" "$wasm"
  node scripts/pack.mjs "$wasm" "$dir/index.html"
  node -e '
    const fs = require("fs"), crypto = require("crypto"), path = require("path");
    const [html, ...files] = process.argv.slice(1);
    let text = fs.readFileSync(html, "utf8");
    for (const file of files) {
      const sri = "sha384-" + crypto.createHash("sha384").update(fs.readFileSync(file)).digest("base64");
      const name = path.basename(file).replace(/[.]/g, "[.]");
      const tag = new RegExp("(<link[^>]*" + name + "[^>]*integrity=\"?)sha384-[A-Za-z0-9+/=]+");
      if (!tag.test(text)) { console.error("minify_glue: no integrity attribute for " + file + " in " + html); process.exit(1); }
      text = text.replace(tag, "$1" + sri);
    }
    fs.writeFileSync(html, text);
  ' "$dir/index.html" "$js"
}

# The release build with the `bench` feature (the page's `rowkeyBench` hook and the views' render
# times), which the browser benchmarks (tests/e2e/bench-*.mjs) serve; never shipped.
bench_build() {
  log "release build for the benchmarks (trunk, offline, $RELEASE_TOOLCHAIN, feature bench)"
  release_trunk --features bench --dist target/bench-dist
  minify_glue target/bench-dist
  size target/bench-dist || true
}

# The engine's reads in WebAssembly under Node (benches/wasm): built as the release build
# builds the engine (toolchain, profile, and `wasm-opt` with index.html's options), then run.
bench_wasm() {
  log "the engine's reads in WebAssembly (benches/wasm, $RELEASE_TOOLCHAIN)"
  with_release_toolchain cargo build --release --offline --target wasm32-unknown-unknown -p rowkey-wasm-bench
  local opts
  opts=$(sed -n 's/.*data-wasm-opt-params="\([^"]*\)".*/\1/p' index.html)
  # shellcheck disable=SC2086  # the options are words
  wasm-opt -Oz $opts target/wasm32-unknown-unknown/release/rowkey_wasm_bench.wasm -o target/rowkey-wasm-bench.wasm
  node benches/wasm/run.mjs target/rowkey-wasm-bench.wasm "${1:-100000}" "${2:-runs}"
}

# Prints the gzipped download of the build in $1 and fails when it weighs more than the budget.
size() {
  local dir=${1:-dist} wasm js gz_wasm gz_js gz_html=0 html_part="" total
  # The WebAssembly as the page fetches it: packed as LZMA (scripts/pack.mjs), or as built.
  wasm=$(ls "$dir"/*.wasm.lzma "$dir"/*.wasm 2>/dev/null | head -1 || true)
  js=$(ls "$dir"/*.js 2>/dev/null | grep -v '/sw.js$' | head -1 || true)
  if [ -z "$wasm" ] || [ -z "$js" ]; then
    printf 'size: no build in %s (a .wasm and its .js); run: bash scripts/dev.sh build\n' "$dir" >&2
    return 1
  fi
  gz_wasm=$(gzip -9c "$wasm" | wc -c); gz_js=$(gzip -9c "$js" | wc -c)
  # The page itself, which carries the loader that unpacks a packed WebAssembly.
  if [ -f "$dir/index.html" ]; then
    gz_html=$(gzip -9c "$dir/index.html" | wc -c)
    html_part=$(printf ' + html %d KB' $((gz_html / 1024)))
  fi
  total=$(((gz_wasm + gz_js + gz_html) / 1024))
  printf 'gzipped size: wasm %d KB + js %d KB%s = %d KB (raw wasm %d KB); budget %d KB\n' \
    $((gz_wasm / 1024)) $((gz_js / 1024)) "$html_part" "$total" $(($(wc -c <"$wasm") / 1024)) "$SIZE_BUDGET_KB"
  if [ "$total" -gt "$SIZE_BUDGET_KB" ]; then
    printf 'size budget exceeded: the download is %d KB gzipped, over the budget of %d KB (ROWKEY_SIZE_BUDGET_KB)\n' \
      "$total" "$SIZE_BUDGET_KB" >&2
    return 1
  fi
}

# Runs one level, its output also in target/NAME.log; a level that fails is remembered, and the
# next level still runs, so one run shows every failure.
FAILED_LEVELS=()
level() {
  local name=$1 start=$SECONDS; shift
  if ! "$@" 2>&1 | tee "target/$name.log"; then FAILED_LEVELS+=("$name"); fi
  log "$name took $((SECONDS - start)) s"
}

# Each browser test file in turn. A file whose runner reported no result at all (its browser or
# driver did not start, or the page never finished) runs once more, and says so; a file whose
# tests ran and failed does not.
browser_tests() {
  local f name out status=0
  for f in tests/web_*.rs; do
    name=$(basename "$f" .rs)
    out=target/browser-tests-$name.log
    if cargo test --target wasm32-unknown-unknown --test "$name" 2>&1 | tee "$out"; then continue; fi
    if grep -q '^test result: ' "$out"; then status=1; continue; fi
    printf 'the runner reported no result for %s; running it once more. It said:\n' "$name"
    grep -E 'Failed|failed|error|driver|timed out' "$out" | tail -5 || true
    cargo test --target wasm32-unknown-unknown --test "$name" 2>&1 | tee "$out" || status=1
  done
  return "$status"
}

run_tests() {
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
  export CHROMEDRIVER=/usr/bin/chromedriver
  export WASM_BINDGEN_TEST_TIMEOUT=120
  log "native tests: cargo test (engine, shell, codec, CLI)"
  level native-tests cargo test --profile test-opt --no-fail-fast
  log "browser tests: wasm-bindgen-test in headless Chromium"
  level browser-tests browser_tests
  level release-build build
  log "end-to-end tests: Playwright driving /usr/bin/chromium, and the build's scripts"
  level e2e-tests node --test tests/e2e/*.test.mjs tests/scripts/*.test.mjs
  summary
}

# One closing line with the counts of all three levels.
summary() {
  local passed=0 failed=0 p f
  for log in target/native-tests.log target/browser-tests.log; do
    while read -r p f; do passed=$((passed + p)); failed=$((failed + f)); done < <(
      sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p' "$log")
  done
  p=$(sed -n 's/^. pass \([0-9]*\)$/\1/p' target/e2e-tests.log | tail -1)
  f=$(sed -n 's/^. fail \([0-9]*\)$/\1/p' target/e2e-tests.log | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  printf '\nall levels: %d passed, %d failed\n' "$passed" "$failed"
  if [ "${#FAILED_LEVELS[@]}" != 0 ]; then
    printf 'levels that did not finish cleanly: %s\n' "${FAILED_LEVELS[*]}"
    # The end of a run is often all that is shown: say here what each failed level printed about it.
    local name
    for name in "${FAILED_LEVELS[@]}"; do
      printf -- '--- %s, its lines about the failure:\n' "$name"
      grep -E 'FAILED|panicked|^error|Failed|failed to|timed out|not ok' "target/$name.log" | awk '!seen[$0]++' | tail -15 || true
    done
  fi
  [ "$failed" = 0 ] && [ "${#FAILED_LEVELS[@]}" = 0 ]
}

mkdir -p target
case "${1:-}" in
  setup) setup ;;
  build) setup; build ;;
  size) size "${2:-dist}" ;;
  bench-build) setup; bench_build ;;
  bench-wasm) setup; bench_wasm "${2:-}" "${3:-}" ;;
  serve) setup; build || log "serving a build over its size budget"; log "serving dist/ on http://127.0.0.1:8080"; exec python3 -m http.server 8080 --bind 127.0.0.1 --directory dist ;;
  test) setup; run_tests ;;
  *) sed -n '2,11p' "$0"; exit 2 ;;
esac
