# Sourced by Scripts/recipes/test-recipes, Scripts/recipes/test-kubernetes,
# Scripts/slurm/test-array and Scripts/ci/test-convert-step: what they need to run the
# recipes as the documentation prints them (docs/archive-migration.md, docs/watch.md,
# docs/ci.md). The recipes name /usr/bin/heic2jpg (where the
# .deb installs it) and paths under /srv and /var/lib; the tests run in a private mount
# namespace where /usr/bin/heic2jpg is the built binary and those folders are fresh tmpfs
# volumes, so nothing on the machine is touched and nothing in a recipe is rewritten.

# printed_in FILE: the one document (README.md or docs/*.md, relative to $root) that
# prints the recipe for FILE, marked `<!-- recipe: FILE -->`; fails, saying so, when no
# document or more than one has that marker, or one has it twice.
printed_in() {
  local marker="<!-- recipe: $1 -->" doc found=() count
  for doc in "$root/README.md" "$root"/docs/*.md; do
    [[ -f $doc ]] || continue
    count=$(grep -cxF -- "$marker" "$doc") || true
    (( count == 0 )) && continue
    found+=("${doc#"$root/"}")
    (( count == 1 )) || found+=("${doc#"$root/"} (again)")
  done
  if (( ${#found[@]} != 1 )); then
    echo "the recipe marker for $1 is in ${#found[@]} places (README.md, docs/*.md)${found[*]:+: ${found[*]}}; it must be in exactly one" >&2
    return 1
  fi
  printf '%s\n' "${found[0]}"
}

# printed_recipe FILE: the text the documentation prints for FILE (the fenced block after
# `<!-- recipe: FILE -->` in the one document that has the marker), exactly; fails when
# no document has it, several do, or it is followed by no fenced block.
printed_recipe() {
  local doc
  doc=$(printed_in "$1") || return 1
  awk -v marker="<!-- recipe: $1 -->" '
    $0 == marker { state = 1; next }
    state == 1 && /^```/ { state = 2; next }
    state == 2 && /^```$/ { exit }
    state == 2 { print; found = 1 }
    END { exit !found }' "$root/$doc"
}

# same_as_printed FILE: whether FILE holds exactly the text the documentation prints for it.
same_as_printed() {
  local text
  text=$(printed_recipe "$1") || return 1
  cmp -s <(printf '%s\n' "$text") "$root/$1"
}

# resolve_binary NAME: checks DEB, or BIN (built in release when neither is given), and
# makes it absolute; sets install_args, the option that names it again to the re-run.
resolve_binary() {
  if [[ -n ${deb:-} ]]; then
    [[ -f $deb ]] || { echo "$1: no package at $deb" >&2; exit 2; }
    deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
    install_args=(--deb "$deb")
    return
  fi
  if [[ -z $bin ]]; then (cd "$root" && swift build -c release --product heic2jpg >/dev/null); bin=$root/.build/release/heic2jpg; fi
  [[ -x $bin ]] || { echo "$1: no executable at $bin" >&2; exit 2; }
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  install_args=(--bin "$bin")
}

# enter_namespace SCRIPT ARGS...: re-runs SCRIPT in a private mount namespace (root
# only) unless this is already that namespace, then installs BIN as /usr/bin/heic2jpg
# there; with DEB, the package's own /usr/bin/heic2jpg, unpacked (dpkg-deb -x) into a
# scratch root on the namespace's tmpfs. The namespace is the one the outer run made, checked by its id, so the mounts
# below can never land in the machine's own namespace. /usr/bin is not empty, so it is
# not covered: an overlay whose upper layer is a tmpfs (on SCRATCH, an empty directory
# the outer run makes and removes) takes the new name, and BIN is bind-mounted onto it;
# the machine's /usr/bin never changes.
enter_namespace() {
  local script=$1; shift
  local here_ns; here_ns=$(readlink /proc/self/ns/mnt)
  if [[ -z ${H2J_OUTER_MOUNT_NS:-} ]]; then
    (( EUID == 0 )) || { echo "$(basename "$script"): needs root (a private mount namespace)" >&2; exit 1; }
    local scratch status=0
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/heic2jpg-usr-bin.XXXXXX")
    H2J_OUTER_MOUNT_NS=$here_ns H2J_SCRATCH=$scratch unshare --mount --propagation private "$script" "$@" || status=$?
    rmdir "$scratch"
    exit "$status"
  fi
  [[ $here_ns != "$H2J_OUTER_MOUNT_NS" ]] || { echo "$(basename "$script"): not in a private mount namespace" >&2; exit 1; }
  mount -t tmpfs -o mode=0755,size=512m heic2jpg-bin "$H2J_SCRATCH"
  mkdir "$H2J_SCRATCH/upper" "$H2J_SCRATCH/work"
  if [[ -n ${deb:-} ]]; then
    dpkg-deb -x "$deb" "$H2J_SCRATCH/root"
    bin=$H2J_SCRATCH/root/usr/bin/heic2jpg
    [[ -x $bin ]] || { echo "$(basename "$script"): $deb has no /usr/bin/heic2jpg" >&2; exit 1; }
  fi
  mount -t overlay -o "lowerdir=/usr/bin,upperdir=$H2J_SCRATCH/upper,workdir=$H2J_SCRATCH/work" heic2jpg-bin /usr/bin
  [[ $(findmnt -n -o FSTYPE --mountpoint /usr/bin) == overlay ]] || { echo "$(basename "$script"): /usr/bin is not the overlay" >&2; exit 1; }
  [[ -e /usr/bin/heic2jpg ]] || : >/usr/bin/heic2jpg
  mount --bind "$bin" /usr/bin/heic2jpg
}

# fresh_volume DIR...: a new, empty tmpfs on each DIR (inside the namespace only).
fresh_volume() {
  local dir
  for dir in "$@"; do mount -t tmpfs -o mode=0755,size=512m heic2jpg-volume "$dir"; done
}
