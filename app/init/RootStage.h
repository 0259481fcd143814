// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace paddock::init {

/**
 * `paddock-init --mount-root OPTIONS -- BWRAP [ARG]...`: gives a bubblewrap sandbox a writable
 * root of its own, then runs bubblewrap on it. Run on the host, before the sandbox exists.
 *
 * Bubblewrap 0.8 cannot mount an overlay, and an ordinary user can mount one only inside a
 * user namespace where it holds capabilities. So this stage makes such a namespace (the host
 * user mapped to 0, as in `unshare -rm`) with a mount namespace of its own, mounts the root
 * there, and runs bubblewrap in it, which builds the sandbox as usual with that root under
 * everything it mounts. Nothing of this is visible on the host, and it all goes away with the
 * sandbox's last process.
 *
 * - `--root-layer NAME`... (top-most first, relative to `--root-layers DIR`): an image's
 *   unpacked layers, owned by the user, which appear as root's inside. Kernel overlayfs with
 *   `userxattr` (Linux 5.11) stacks them under the sandbox's upper layer; this process then
 *   becomes bubblewrap (no copy, no daemon).
 * - `--root-host` with `--base-bind SRC:DST`, `--base-symlink TARGET:PATH` and `--base-dir
 *   PATH`: the host's system as the base, assembled on a tmpfs at `--root-base`.
 *   With `--kernel-overlay`, the kernel's overlayfs: one overlay over the tmpfs and one over
 *   each bound directory at its place (overlayfs does not cross mounts), their writes in
 *   `upper/DST`, their work folders `work/root`, `work/1`, ... The host's files belong to real
 *   root, which the namespace does not map, so root inside could not write into the host's
 *   directories; `--root-skeleton DIR` (the same directories, owned by the user, see
 *   runtime/bwrap/HostSkeleton.h) lies over each, so that it can create, replace and remove
 *   entries in them. Then this process becomes bubblewrap.
 *   Otherwise fuse-overlayfs (`--fuse-overlayfs PATH`) with `squash_to_root`, which shows the
 *   host's files as root's and copies up as the user; it runs beside bubblewrap and ends when
 *   it does.
 * - `--root-upper DIR`, `--root-work DIR`: the sandbox's upper layer and overlayfs' work
 *   directory, on the same file system; `--root-mount DIR`: where the root is mounted.
 * - `--die-with-parent`: this stage (and so the sandbox) dies with the process that started it.
 * - `--root-volatile`: the kernel's overlays get `volatile` (a disposable sandbox, `run --rm`):
 *   their upper layer's file system is not synced when they go, which a sandbox's end otherwise
 *   waits for; what it wrote may not survive a crash of the computer, and it is removed anyway.
 *
 * `paddock-init --mount-root --probe DIR`: whether the kernel's overlayfs gives a writable root
 * over the host's system here (an overlay of /usr in such a namespace, a file written through
 * it), with folders made under the empty @p DIR; 0 when it does, else 1 and the reason on stderr.
 *
 * Returns the exit status: bubblewrap's, or 1 when the root could not be mounted (the reason
 * on stderr).
 */
int runRootStage(int argc, char *argv[]);

} // namespace paddock::init
