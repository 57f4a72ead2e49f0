# Sourced by the scripts that take packages from Debian's archive for the tests (the libfuse
# releases of the version matrix, the sysroots of other architectures): apt-get against one
# suite with a private sources list, index and cache under a directory of ours, so that the
# system's apt set-up is never touched and nothing is installed.
#   debian_apt_update DIR SUITE TYPE [ARCH]  writes DIR's sources list (TYPE "deb" or "deb-src",
#                                            ARCH default this machine's) and reads its index afresh,
#                                            so that a version that has left the suite is not asked for
#   debian_apt DIR ARGS...                   apt-get ARGS with DIR's sources, index, cache and architecture
# Needs apt-get and debian-archive-keyring.

debian_apt() {
  local dir=$1 arch
  shift
  arch=$(cat "$dir/arch")
  apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
    -o APT::Architecture="$arch" -o APT::Architectures="$arch" \
    -o APT::Sandbox::User="$(id -un)" "$@"
}

debian_apt_update() {
  local dir=$1 suite=$2 type=$3 arch=${4:-$(dpkg --print-architecture)}
  rm -rf "$dir"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "$arch" >"$dir/arch"
  echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg arch=$arch] http://deb.debian.org/debian $suite main" \
    >"$dir/sources.list"
  debian_apt "$dir" update >&2
}
