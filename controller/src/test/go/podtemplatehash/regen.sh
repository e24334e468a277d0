#!/usr/bin/env bash
# Regenerates the Go type tables (controller/src/main/resources/io/rollgate/controller/rollout/model/) and the Go test
# vectors (controller/src/test/resources/go-hash/expected/) used by GoPodTemplateJson and its tests.
# Needs Go and the Go module proxy. Run from anywhere: controller/src/test/go/podtemplatehash/regen.sh
# One run per k8s.io/api version: go.mod (v0.36.3), k8s-v0.34.mod (v0.34.5, Argo Rollouts 1.9/1.10) and
# k8s-v0.29.mod (v0.29.3, Argo Rollouts 1.7/1.8).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
main_res=../../../main/resources/io/rollgate/controller/rollout/model
test_res=../../resources/go-hash
mkdir -p "$main_res" "$test_res/expected"
for modfile in go.mod k8s-v0.34.mod k8s-v0.29.mod; do
  flags=()
  [[ $modfile == go.mod ]] || flags=(-modfile="$modfile")
  go build "${flags[@]}" -o /tmp/podtemplatehash.$$ .
  version=$(grep -E '^\s+k8s.io/api v' "$modfile" | awk '{print $2}')
  /tmp/podtemplatehash.$$ types > "$main_res/go-podtemplatespec-$version.json"
  rm -rf "$test_res/expected/$version"
  /tmp/podtemplatehash.$$ vectors "$test_res/fixtures" "$test_res/expected/$version"
  /tmp/podtemplatehash.$$ quantities "$test_res/quantities.txt" > "$test_res/expected/$version/quantities.tsv"
  /tmp/podtemplatehash.$$ times "$test_res/times.txt" > "$test_res/expected/$version/times.tsv"
  /tmp/podtemplatehash.$$ random 250 20260 | gzip -9n > "$test_res/expected/$version/random.jsonl.gz"
  rm -f /tmp/podtemplatehash.$$
  echo "k8s.io/api $version: done"
done
