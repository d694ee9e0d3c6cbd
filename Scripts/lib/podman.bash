# Sourced by Scripts/image-check and Scripts/recipes/test-kubernetes: a podman of their
# own, whose configuration, storage, volumes and events live in one folder, so the
# machine's podman setup is neither used nor changed.

# podman_private DIR: a podman configuration and storage of their own under DIR, for this
# process and its children. runc, not crun: crun refuses cgroups in hybrid mode (v1 with
# controllers in the v2 tree too). Containers get limits of open files and processes no
# higher than podman's own (as root, podman asks the runtime for 1048576 of each, which
# fails without CAP_SYS_RESOURCE; podman runs itself with at most 32768 processes).
podman_private() {
  local nofile nproc
  nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
  [[ $nofile == unlimited ]] || (( nofile > 1048576 )) && nofile=1048576
  [[ $nproc == unlimited ]] || (( nproc > 32768 )) && nproc=32768
  mkdir -p "$1/storage" "$1/run" "$1/tmp" "$1/networks"
  cat >"$1/containers.conf" <<EOF
[containers]
netns = "none"
log_driver = "k8s-file"
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$1/events.log"
tmp_dir = "$1/tmp"
volume_path = "$1/storage/volumes"
[network]
network_config_dir = "$1/networks"
EOF
  cat >"$1/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$1/storage"
runroot = "$1/run"
EOF
  printf 'unqualified-search-registries = []\n' >"$1/registries.conf"
  export CONTAINERS_CONF=$1/containers.conf CONTAINERS_STORAGE_CONF=$1/storage.conf \
         CONTAINERS_REGISTRIES_CONF=$1/registries.conf
}
# podman_cleanup DIR: every container, pod, volume and image of that storage removed, then DIR.
podman_cleanup() {
  podman pod rm -a -f -t 0 >/dev/null 2>&1 || true
  podman rm -a -f -t 0 >/dev/null 2>&1 || true
  podman volume rm -a -f >/dev/null 2>&1 || true
  podman rmi -a -f >/dev/null 2>&1 || true
  { findmnt -rn -o TARGET | grep -F "$1/" | sort -r | while read -r m; do umount -l "$m"; done; } || true
  rm -rf "$1"
}
