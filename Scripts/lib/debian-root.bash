# Sourced by Scripts/install-check, Scripts/fresh-check and Scripts/image: the Debian 12
# sources this machine uses, a minbase root made by mmdebstrap from them and cached as a
# tarball, and the mounts a chroot into a fresh copy of it needs. Callers run in a
# private mount namespace, so every mount made here vanishes with them.

# debian_sources: the Debian 12 sources this machine's apt uses (Origin Debian), one
# `deb SITE RELEASE COMPONENT` line each; deb.debian.org's when it names none.
debian_sources() {
  local list
  list=$(apt-get indextargets --format '$(ORIGIN) $(SITE) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' 2>/dev/null |
    awk '$1 == "Debian" && $3 ~ /^bookworm/ { print "deb " $2 " " $3 " " $4 }' | sort -u)
  if [[ -n $list ]]; then printf '%s\n' "$list"; return; fi
  printf '%s\n' "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
}

# cached_debian_root TARBALL [PACKAGE...]: makes TARBALL, a minbase Debian 12 root with
# PACKAGES, unless it exists, is under a week old and was made with the same packages
# (kept in TARBALL.packages). Fails when no root can be made (no mirror reachable).
cached_debian_root() {
  local tarball=$1; shift
  local wanted="${*:-}" list include=()
  if [[ -f $tarball && -z $(find "$tarball" -mtime +7) && $(cat "$tarball.packages" 2>/dev/null) == "$wanted" ]]; then
    return 0
  fi
  command -v mmdebstrap >/dev/null || { echo "mmdebstrap not found (run Scripts/setup --package)" >&2; return 1; }
  mkdir -p "$(dirname "$tarball")"
  mapfile -t list < <(debian_sources)
  (( $# )) && include=("--include=$(IFS=,; echo "$*")")
  echo "making a minbase Debian 12 root${wanted:+ with $wanted} (once; cached in $tarball)" >&2
  mmdebstrap --quiet --variant=minbase --mode=root --format=tar "${include[@]}" bookworm "$tarball.new" "${list[@]}" || return 1
  mv "$tarball.new" "$tarball"
  printf '%s\n' "$wanted" >"$tarball.packages"
}

# enter_debian_root TARBALL SYSROOT CACHE: unpacks TARBALL into SYSROOT (an empty
# directory) and mounts what a chroot there needs: /proc, this machine's DNS, and
# CACHE's archives/ and lists/ as apt's, so packages are downloaded once.
enter_debian_root() {
  local tarball=$1 sysroot=$2 cache=$3
  mkdir -p "$cache/archives/partial" "$cache/lists/partial"
  tar -C "$sysroot" -xf "$tarball"
  cp -L /etc/resolv.conf "$sysroot/etc/resolv.conf"
  mount -t proc proc "$sysroot/proc"
  mount --bind "$cache/archives" "$sysroot/var/cache/apt/archives"
  mount --bind "$cache/lists" "$sysroot/var/lib/apt/lists"
}
