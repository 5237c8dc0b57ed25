//! Handle-based access to the files below one root folder (issue 7, item 3).
//!
//! Checking a path with `lstat` and then using it by name leaves a window in
//! which a folder can be swapped for a symbolic link (a write lands outside
//! the repository) or a file for a FIFO (a read blocks forever). Here every
//! folder is opened with `O_DIRECTORY|O_NOFOLLOW` relative to its already
//! verified parent, every file is opened relative to its verified folder with
//! `O_NOFOLLOW|O_NONBLOCK` and must `fstat` as a regular file, and temporary
//! files are created, linked and renamed relative to the same folder handle.
//! Whatever is swapped in after a check, the kernel refuses to follow it.
//!
//! [`Folders`] caches the verified folder handles, so a snapshot or a
//! multi-file write checks each folder once however many files it touches.
//!
//! `rustix` rather than `cap-std`: `tempfile` already builds `rustix` with its
//! `fs` feature, so the `*at` calls cost no new crate, while `cap-std` would
//! add its own tree (`cap-primitives`, `io-lifetimes`, `maybe-owned`, ...)
//! for an abstraction (ambient-authority-free `Dir`) we need only a sliver of.

use std::collections::HashMap;
use std::io::{Read as _, Write as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::error::Error;
use standards_core::model::tree::Node;

/// The most bytes a whole-file read returns: a workflow file larger than this
/// is reported as unreadable, with its size, instead of exhausting memory.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// At most this many folder handles stay open per [`Folders`]; further
/// folders are still verified, just not remembered.
const MAX_CACHED: usize = 512;

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// Why a folder below the root cannot be reached through real folders.
#[derive(Debug)]
pub enum Blocked {
    /// This component (root-relative) does not exist.
    Missing(String),
    /// This component is a symbolic link.
    Symlink(String),
    /// This component exists but is not a folder.
    NotAFolder(String),
    /// Opening this component failed.
    Io(String, std::io::Error),
}

impl Blocked {
    /// A refusal for writing `rel` through this obstacle.
    pub fn refusal(self, rel: &str) -> Error {
        match self {
            Blocked::Symlink(c) => Error::Refused {
                message: format!(
                    "refusing to write `{rel}`: `{c}` is a symbolic link, not a normal folder"
                ),
                hint: Some("replace the link with a real folder inside the repository".into()),
            },
            Blocked::NotAFolder(c) => Error::Refused {
                message: format!("refusing to write `{rel}`: `{c}` is not a normal folder"),
                hint: Some(format!("move `{c}` out of the way")),
            },
            Blocked::Missing(c) => Error::Refused {
                message: format!("refusing to write `{rel}`: `{c}` disappeared while writing"),
                hint: Some("another program is changing these folders; try again".into()),
            },
            Blocked::Io(c, e) => Error::io(c, e),
        }
    }
}

/// What kind of file system object a [`FileType`] is, in words.
pub fn describe_kind(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a folder",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a named pipe (FIFO)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice | FileType::BlockDevice => "a device file",
        _ => "not a regular file",
    }
}

/// Splits a `/`-separated relative path into its folder and last name.
pub fn split(rel: &str) -> (&str, &str) {
    match rel.rfind('/') {
        Some(i) => (&rel[..i], &rel[i + 1..]),
        None => ("", rel),
    }
}

/// Whether every `/`-separated component is a plain name.
pub fn plain_components(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\0'))
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn io(e: Errno) -> std::io::Error {
    std::io::Error::from(e)
}

/// The kind of `name` in `dir`, without following a link.
pub fn kind_at(dir: impl AsFd, name: &str) -> Result<FileType, Errno> {
    rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map(|st| FileType::from_raw_mode(st.st_mode))
}

/// Opens the folder `name` inside `dir`, never through a link.
pub fn open_folder_at(dir: impl AsFd, name: &str) -> Result<OwnedFd, Errno> {
    rfs::openat(dir, name, DIR_FLAGS, Mode::empty())
}

/// Verified folder handles below one root, each folder opened once.
pub struct Folders {
    root: PathBuf,
    cache: Mutex<HashMap<String, Arc<OwnedFd>>>,
    swept: Mutex<std::collections::HashSet<String>>,
}

impl Folders {
    /// Handles below `root`. The root itself is trusted as given (it is the
    /// discovered, canonical project folder); everything below is verified.
    pub fn new(root: impl Into<PathBuf>) -> Folders {
        Folders {
            root: root.into(),
            cache: Mutex::new(HashMap::new()),
            swept: Mutex::new(Default::default()),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn cached(&self, rel: &str) -> Option<Arc<OwnedFd>> {
        self.cache.lock().ok()?.get(rel).cloned()
    }

    fn remember(&self, rel: &str, fd: OwnedFd) -> Arc<OwnedFd> {
        let fd = Arc::new(fd);
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() < MAX_CACHED {
                cache.insert(rel.to_string(), fd.clone());
            }
        }
        fd
    }

    /// Drops the cached handles of `rel` and everything below it (after a
    /// removal, so a later lookup sees what is there now).
    pub fn forget(&self, rel: &str) {
        if let Ok(mut cache) = self.cache.lock() {
            let below = format!("{rel}/");
            cache.retain(|k, _| k != rel && !k.starts_with(&below));
        }
    }

    /// The handle of the folder `rel_dir` (`""` is the root), reached one
    /// component at a time without following links.
    pub fn folder(&self, rel_dir: &str) -> Result<Arc<OwnedFd>, Blocked> {
        self.walk(rel_dir, false).map(|(fd, _)| fd)
    }

    /// Like [`Folders::folder`], creating missing folders one level at a time.
    /// Returns the handle and the folders it created, outermost first.
    pub fn create_folders(&self, rel_dir: &str) -> Result<(Arc<OwnedFd>, Vec<String>), Blocked> {
        self.walk(rel_dir, true)
    }

    fn walk(&self, rel_dir: &str, create: bool) -> Result<(Arc<OwnedFd>, Vec<String>), Blocked> {
        let parts: Vec<&str> = if rel_dir.is_empty() {
            Vec::new()
        } else {
            rel_dir.split('/').collect()
        };
        if !rel_dir.is_empty() && !plain_components(rel_dir) {
            return Err(Blocked::NotAFolder(rel_dir.to_string()));
        }
        // Start from the deepest folder already verified.
        let mut start = 0;
        let mut current = None;
        for i in (0..=parts.len()).rev() {
            if let Some(fd) = self.cached(&parts[..i].join("/")) {
                start = i;
                current = Some(fd);
                break;
            }
        }
        let mut current = match current {
            Some(fd) => fd,
            None => {
                let fd = rfs::open(
                    &self.root,
                    DIR_FLAGS.difference(OFlags::NOFOLLOW),
                    Mode::empty(),
                )
                .map_err(|e| Blocked::Io(self.root.display().to_string(), io(e)))?;
                self.remember("", fd)
            }
        };
        let mut created = Vec::new();
        for i in start..parts.len() {
            let name = parts[i];
            let shown = parts[..=i].join("/");
            let opened = match open_folder_at(&*current, name) {
                Err(Errno::NOENT) if create => {
                    match rfs::mkdirat(&*current, name, Mode::from_raw_mode(0o777)) {
                        Ok(()) => created.push(shown.clone()),
                        Err(Errno::EXIST) => {}
                        Err(e) => return Err(Blocked::Io(shown, io(e))),
                    }
                    open_folder_at(&*current, name)
                }
                other => other,
            };
            let fd = match opened {
                Ok(fd) => fd,
                Err(Errno::NOENT) => return Err(Blocked::Missing(shown)),
                Err(e @ (Errno::LOOP | Errno::NOTDIR | Errno::MLINK)) => {
                    return Err(match kind_at(&*current, name) {
                        Ok(FileType::Symlink) => Blocked::Symlink(shown),
                        Ok(FileType::Directory) => Blocked::Io(shown, io(e)),
                        Err(Errno::NOENT) => Blocked::Missing(shown),
                        _ => Blocked::NotAFolder(shown),
                    })
                }
                Err(e) => return Err(Blocked::Io(shown, io(e))),
            };
            current = self.remember(&shown, fd);
        }
        Ok((current, created))
    }

    /// What sits at the root-relative `rel`, never following a link: a whole
    /// regular file up to [`MAX_FILE_BYTES`].
    pub fn read(&self, rel: &str) -> Node {
        self.read_limited(rel, None)
    }

    /// Like [`Folders::read`], but reads at most `limit` bytes of a file.
    pub fn read_prefix(&self, rel: &str, limit: usize) -> Node {
        self.read_limited(rel, Some(limit))
    }

    fn read_limited(&self, rel: &str, prefix: Option<usize>) -> Node {
        if !plain_components(rel) {
            return Node::Missing;
        }
        let (dir, name) = split(rel);
        let node = match self.folder(dir) {
            Ok(parent) => read_at(&parent, name, prefix),
            Err(Blocked::Missing(_) | Blocked::NotAFolder(_)) => Node::Missing,
            Err(Blocked::Symlink(_)) => return Node::Symlink,
            Err(Blocked::Io(_, e)) => return Node::Unreadable(e.to_string()),
        };
        // The walks list a name that is not UTF-8 lossily: say so instead of
        // letting the file vanish (issue 7, item 5).
        if node == Node::Missing && rel.contains('\u{FFFD}') {
            return Node::Unreadable(
                "its name is not valid UTF-8, so git standards cannot read it; rename it".into(),
            );
        }
        node
    }

    /// The first `limit` bytes of the file `rel` (otherwise as
    /// [`Folders::read`]), and, when `whole_if` holds for them, the whole
    /// file too, read through the same open handle: a file that may be a
    /// record is opened once, an ordinary one is read only as far as needed.
    pub fn read_opening(
        &self,
        rel: &str,
        limit: usize,
        whole_if: impl Fn(&[u8]) -> bool,
    ) -> (Node, Option<Node>) {
        if !plain_components(rel) {
            return (Node::Missing, None);
        }
        let (dir, name) = split(rel);
        let read = match self.folder(dir) {
            Ok(parent) => read_opening_at(&*parent, name, limit, whole_if),
            Err(Blocked::Missing(_) | Blocked::NotAFolder(_)) => (Node::Missing, None),
            Err(Blocked::Symlink(_)) => return (Node::Symlink, None),
            Err(Blocked::Io(_, e)) => return (Node::Unreadable(e.to_string()), None),
        };
        if read.0 == Node::Missing && rel.contains('\u{FFFD}') {
            return (self.read_limited(rel, Some(limit)), None);
        }
        read
    }

    /// The entries of the folder `rel_dir`, read through its handle.
    pub fn entries(&self, rel_dir: &str) -> Result<Vec<Entry>, Blocked> {
        let fd = self.folder(rel_dir)?;
        list(&fd).map_err(|e| Blocked::Io(rel_dir.to_string(), io(e)))
    }

    /// Writes `bytes` to `rel` atomically: a temporary file created in the
    /// verified folder, filled, synced, then linked (no clobbering) or renamed
    /// over the target relative to the same folder handle. Folders it had to
    /// create are removed again if the write fails.
    pub fn atomic_write(&self, rel: &str, bytes: &[u8], replace: bool) -> Result<(), Error> {
        let how = if replace {
            Durability::Replace
        } else {
            Durability::Create
        };
        self.write_as(rel, bytes, how)
    }

    /// Replaces `rel` with `bytes` like [`Folders::atomic_write`], but without
    /// syncing to disk first: for caches, which a crash may lose or leave
    /// torn, and whose readers must check what they read.
    pub fn write_cache(&self, rel: &str, bytes: &[u8]) -> Result<(), Error> {
        self.write_as(rel, bytes, Durability::Cache)
    }

    /// Creates the missing folders of `rel`, then writes it the way `how`
    /// says; folders it created are removed again if the write fails. Only
    /// the durable writes are crash points.
    fn write_as(&self, rel: &str, bytes: &[u8], how: Durability) -> Result<(), Error> {
        super::write::validate_relative(rel)?;
        let (dir, name) = split(rel);
        let (parent, created) = self.create_folders(dir).map_err(|b| b.refusal(rel))?;
        if !created.is_empty() && how != Durability::Cache {
            super::failpoint::hit("write:folders-created");
        }
        let result = self.write_in(&parent, rel, name, bytes, how);
        if result.is_err() {
            self.remove_created(&created);
        }
        result
    }

    /// Removes the (empty) folders a failed write created, innermost first.
    fn remove_created(&self, created: &[String]) {
        for folder in created.iter().rev() {
            let (dir, name) = split(folder);
            if let Ok(parent) = self.folder(dir) {
                let _ = rfs::unlinkat(&*parent, name, AtFlags::REMOVEDIR);
            }
            self.forget(folder);
        }
    }

    fn write_in(
        &self,
        parent: &OwnedFd,
        rel: &str,
        name: &str,
        bytes: &[u8],
        how: Durability,
    ) -> Result<(), Error> {
        let replace = how != Durability::Create;
        let target = self.root.join(rel);
        let keep_mode = match kind_and_mode(parent, name) {
            Ok((FileType::Symlink, _)) => {
                return Err(Error::Refused {
                    message: format!("refusing to write `{rel}`: it is a symbolic link"),
                    hint: Some("replace the link with a regular file".into()),
                })
            }
            Ok((FileType::Directory, _)) => {
                return Err(Error::Refused {
                    message: format!("refusing to write `{rel}`: it is a folder"),
                    hint: None,
                })
            }
            Ok((FileType::RegularFile, _)) if !replace => {
                return Err(Error::AlreadyExists { path: rel.into() })
            }
            Ok((FileType::RegularFile, mode)) => Some(mode),
            Ok((kind, _)) => {
                return Err(Error::Refused {
                    message: format!(
                        "refusing to write `{rel}`: it is {}, not a regular file",
                        describe_kind(kind)
                    ),
                    hint: Some(format!("move `{rel}` out of the way")),
                })
            }
            Err(Errno::NOENT) => None,
            Err(e) => return Err(Error::io(&target, io(e))),
        };
        self.sweep_once(parent, split(rel).0);
        let mut tmp = TempFile::create(parent).map_err(|e| Error::io(&target, e))?;
        tmp.file
            .write_all(bytes)
            .map_err(|e| Error::io(&target, e))?;
        if let Some(mode) = keep_mode {
            // A replaced file keeps its permissions; a new one gets the umask's.
            rfs::fchmod(&tmp.file, Mode::from_raw_mode(mode))
                .map_err(|e| Error::io(&target, io(e)))?;
        }
        if how != Durability::Cache {
            tmp.file.sync_all().map_err(|e| Error::io(&target, e))?;
            super::failpoint::hit("write:temp-synced");
        }
        if replace {
            rfs::renameat(parent, tmp.name.as_str(), parent, name)
                .map_err(|e| Error::io(&target, io(e)))?;
        } else {
            // A hard link fails if anything appeared at the target meanwhile.
            match rfs::linkat(parent, tmp.name.as_str(), parent, name, AtFlags::empty()) {
                Ok(()) => {}
                Err(Errno::EXIST) => return Err(Error::AlreadyExists { path: rel.into() }),
                Err(e) => return Err(Error::io(&target, io(e))),
            }
        }
        Ok(())
    }

    /// Removes temporary files that a killed writer left in this folder
    /// (their process is gone), once per folder per [`Folders`].
    fn sweep_once(&self, parent: &OwnedFd, rel_dir: &str) {
        let first = self
            .swept
            .lock()
            .map(|mut s| s.insert(rel_dir.to_string()))
            .unwrap_or(false);
        if first {
            sweep_stale_temps(parent);
        }
    }

    /// Removes the temporary files killed writers left in the folder
    /// `rel_dir` (see [`sweep_stale_temps`]); a missing folder has none.
    pub fn sweep(&self, rel_dir: &str) -> usize {
        match self.folder(rel_dir) {
            Ok(fd) => {
                if let Ok(mut s) = self.swept.lock() {
                    s.insert(rel_dir.to_string());
                }
                sweep_stale_temps(&fd)
            }
            Err(_) => 0,
        }
    }

    /// Writes `bytes` to `rel` through the fixed temporary name `scratch` in
    /// the same verified folder, then renames it over the target (for the
    /// journal, whose steps reuse one name so a recovery can find what a
    /// killed write left). A link, folder or special file at the target is
    /// refused; a replaced file keeps its permissions.
    pub fn put_with_scratch(&self, rel: &str, bytes: &[u8], scratch: &str) -> Result<(), Error> {
        super::write::validate_relative(rel)?;
        let (dir, name) = split(rel);
        let (parent, _) = self.create_folders(dir).map_err(|b| b.refusal(rel))?;
        let target = self.root.join(rel);
        self.discard(&join(dir, scratch))?;
        let keep = match kind_and_mode(&parent, name) {
            Ok((FileType::RegularFile, mode)) => Some(mode),
            Ok((kind, _)) => {
                return Err(Error::refused(
                    format!("refusing to write `{rel}`: it is {}", describe_kind(kind)),
                    Some(format!(
                        "move `{rel}` out of the way, then run `git standards recover` again"
                    )),
                ))
            }
            Err(Errno::NOENT) => None,
            Err(e) => return Err(Error::io(&target, io(e))),
        };
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rfs::openat(&*parent, scratch, flags, Mode::from_raw_mode(0o666))
            .map_err(|e| Error::io(&target, io(e)))?;
        let mut file = std::fs::File::from(fd);
        file.write_all(bytes).map_err(|e| Error::io(&target, e))?;
        if let Some(mode) = keep {
            rfs::fchmod(&file, Mode::from_raw_mode(mode)).map_err(|e| Error::io(&target, io(e)))?;
        }
        file.sync_all().map_err(|e| Error::io(&target, e))?;
        rfs::renameat(&*parent, scratch, &*parent, name).map_err(|e| Error::io(&target, io(e)))
    }

    /// Removes whatever is at `rel` (a file, a link itself, or a folder and
    /// everything in it), never following a link; nothing there is fine. A
    /// folder on the way that is a link is refused.
    pub fn discard(&self, rel: &str) -> Result<(), Error> {
        super::write::validate_relative(rel)?;
        let (dir, name) = split(rel);
        let parent = match self.folder(dir) {
            Ok(fd) => fd,
            Err(Blocked::Missing(_)) => return Ok(()),
            Err(b) => return Err(removal_refusal(rel, b)),
        };
        let shown = self.root.join(rel);
        match kind_at(&*parent, name) {
            Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(Error::io(&shown, io(e))),
            Ok(FileType::Directory) => {
                let fd = open_folder_at(&*parent, name).map_err(|e| Error::io(&shown, io(e)))?;
                remove_contents(&fd).map_err(|e| Error::io(&shown, io(e)))?;
                self.forget(rel);
                rfs::unlinkat(&*parent, name, AtFlags::REMOVEDIR)
                    .map_err(|e| Error::io(&shown, io(e)))
            }
            Ok(_) => rfs::unlinkat(&*parent, name, AtFlags::empty())
                .map_err(|e| Error::io(&shown, io(e))),
        }
    }

    /// Renames `from` to `to`, both names in the verified folder `rel_dir`.
    pub fn rename_within(&self, rel_dir: &str, from: &str, to: &str) -> Result<(), Error> {
        let fd = self
            .folder(rel_dir)
            .map_err(|b| removal_refusal(&join(rel_dir, from), b))?;
        rfs::renameat(&*fd, from, &*fd, to)
            .map_err(|e| Error::io(self.root.join(join(rel_dir, from)), io(e)))?;
        self.forget(&join(rel_dir, from));
        Ok(())
    }

    /// Removes the regular file `rel` (never a link's target, never a folder).
    pub fn remove_file(&self, rel: &str) -> Result<(), Error> {
        super::write::validate_relative(rel)?;
        let (dir, name) = split(rel);
        let parent = self.folder(dir).map_err(|b| removal_refusal(rel, b))?;
        match kind_at(&*parent, name) {
            Ok(FileType::RegularFile) => rfs::unlinkat(&*parent, name, AtFlags::empty())
                .map_err(|e| Error::io(self.root.join(rel), io(e))),
            Ok(kind) => Err(Error::refused(
                format!("refusing to remove `{rel}`: it is {}", describe_kind(kind)),
                None,
            )),
            Err(e) => Err(Error::io(self.root.join(rel), io(e))),
        }
    }

    /// Removes the folder `rel` and everything in it, through handles. It
    /// refuses, before removing anything, when the folder holds a symbolic
    /// link or anything but regular files and folders.
    pub fn remove_tree(&self, rel: &str) -> Result<(), Error> {
        super::write::validate_relative(rel)?;
        let (dir, name) = split(rel);
        let parent = self.folder(dir).map_err(|b| removal_refusal(rel, b))?;
        match kind_at(&*parent, name) {
            Ok(FileType::Directory) => {}
            Ok(FileType::RegularFile) => return self.remove_file(rel),
            Ok(kind) => {
                return Err(Error::refused(
                    format!("refusing to remove `{rel}`: it is {}", describe_kind(kind)),
                    None,
                ))
            }
            Err(e) => return Err(Error::io(self.root.join(rel), io(e))),
        }
        let fd = self.folder(rel).map_err(|b| removal_refusal(rel, b))?;
        if let Some(bad) = first_non_plain(&fd, rel, 0)? {
            return Err(Error::refused(
                format!("refusing to remove `{rel}`: it holds `{bad}`, which is not a regular file or folder"),
                None,
            ));
        }
        remove_contents(&fd).map_err(|e| Error::io(self.root.join(rel), io(e)))?;
        self.forget(rel);
        rfs::unlinkat(&*parent, name, AtFlags::REMOVEDIR)
            .map_err(|e| Error::io(self.root.join(rel), io(e)))
    }
}

fn removal_refusal(rel: &str, b: Blocked) -> Error {
    match b {
        Blocked::Symlink(c) => Error::refused(
            format!("refusing to remove `{rel}`: `{c}` is a symbolic link"),
            Some("git standards never removes anything through a link".into()),
        ),
        Blocked::NotAFolder(c) | Blocked::Missing(c) => Error::refused(
            format!("refusing to remove `{rel}`: `{c}` is not a normal folder"),
            None,
        ),
        Blocked::Io(c, e) => Error::io(c, e),
    }
}

#[allow(clippy::unnecessary_cast)] // `st_mode` is u16 on some platforms
fn kind_and_mode(dir: &OwnedFd, name: &str) -> Result<(FileType, u32), Errno> {
    rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map(|st| {
        (
            FileType::from_raw_mode(st.st_mode),
            (st.st_mode & 0o7777) as u32,
        )
    })
}

/// One folder entry: its name as bytes and its kind, without following links.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: Vec<u8>,
    pub kind: FileType,
}

/// A folder listed through a handle it owns: its entries, and the handle to
/// open them relative to (a walk opens every folder once, not twice).
pub struct Listed {
    dir: rfs::Dir,
    pub entries: Vec<Entry>,
}

impl Listed {
    /// The verified handle the entries were read through.
    pub fn fd(&self) -> BorrowedFd<'_> {
        // `Dir::fd` cannot fail on Linux; it only borrows the owned handle.
        self.dir.fd().expect("a listed folder keeps its handle")
    }

    /// Whether the folder holds an entry of this name (of any kind).
    pub fn has(&self, name: &[u8]) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }
}

/// Lists the folder `fd`, keeping the handle: unlike [`list`], which reads
/// through a second handle to leave the caller's untouched, this costs no
/// `fcntl` and no reopening of `.`.
pub fn list_owned(fd: OwnedFd) -> Result<Listed, Errno> {
    let mut dir = rfs::Dir::new(fd)?;
    let mut entries = Vec::new();
    for entry in dir.by_ref() {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        entries.push(Entry {
            name: name.to_vec(),
            kind: entry.file_type(),
        });
    }
    let fd = dir.fd()?;
    for e in entries.iter_mut().filter(|e| e.kind == FileType::Unknown) {
        e.kind = rfs::statat(fd, e.name.as_slice(), AtFlags::SYMLINK_NOFOLLOW)
            .map(|st| FileType::from_raw_mode(st.st_mode))
            .unwrap_or(FileType::Unknown);
    }
    Ok(Listed { dir, entries })
}

/// The `lstat` data of `name` in `dir`, never following a link.
pub fn stat_at(dir: impl AsFd, name: &str) -> Result<rfs::Stat, Errno> {
    rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
}

/// The entries of the folder `fd` (without `.` and `..`).
pub fn list(fd: &OwnedFd) -> Result<Vec<Entry>, Errno> {
    let mut out = Vec::new();
    for entry in rfs::Dir::read_from(fd)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let mut kind = entry.file_type();
        if kind == FileType::Unknown {
            kind = rfs::statat(fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode))
                .unwrap_or(FileType::Unknown);
        }
        out.push(Entry {
            name: name.to_vec(),
            kind,
        });
    }
    Ok(out)
}

/// Reads the file `name` in the folder `dir`: whole (up to
/// [`MAX_FILE_BYTES`]) or its first `prefix` bytes.
pub fn read_at(dir: impl AsFd, name: &str, prefix: Option<usize>) -> Node {
    match prefix {
        Some(limit) => read_opening_at(dir, name, limit, |_| false).0,
        None => match open_regular(dir.as_fd(), name) {
            Ok((file, size)) => read_rest(file, Vec::new(), size),
            Err(node) => node,
        },
    }
}

/// Opens the regular file `name` in `dir` without following a link or
/// blocking, checking what was opened; `Err` is what sits there instead.
fn open_regular(dir: BorrowedFd<'_>, name: &str) -> Result<(std::fs::File, u64), Node> {
    match kind_at(dir, name) {
        Ok(FileType::RegularFile) => {}
        Ok(FileType::Symlink) => return Err(Node::Symlink),
        Ok(FileType::Directory) => return Err(Node::Dir),
        Ok(kind) => {
            return Err(Node::Unreadable(format!(
                "it is {}, not a regular file",
                describe_kind(kind)
            )))
        }
        Err(Errno::NOENT | Errno::NOTDIR) => return Err(Node::Missing),
        Err(e) => return Err(Node::Unreadable(io(e).to_string())),
    }
    let fd = match rfs::openat(dir, name, FILE_FLAGS, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::LOOP) => return Err(Node::Symlink),
        Err(Errno::NOENT) => return Err(Node::Missing),
        Err(e) => return Err(Node::Unreadable(io(e).to_string())),
    };
    // What was opened, not what was checked: it may have been swapped meanwhile.
    let st = rfs::fstat(&fd).map_err(|e| Node::Unreadable(io(e).to_string()))?;
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind != FileType::RegularFile {
        return Err(Node::Unreadable(format!(
            "it was replaced by {} while being read",
            describe_kind(kind)
        )));
    }
    super::reads::note_disk();
    Ok((std::fs::File::from(fd), st.st_size.max(0) as u64))
}

/// How [`Folders::write_in`] puts a file in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Durability {
    /// A new file, synced, linked in only if nothing is at the target.
    Create,
    /// Synced, then renamed over the target.
    Replace,
    /// Renamed over the target unsynced (a cache).
    Cache,
}

/// Reads the rest of `file` after `bytes` (up to [`MAX_FILE_BYTES`]).
fn read_rest(file: std::fs::File, mut bytes: Vec<u8>, size: u64) -> Node {
    if size > MAX_FILE_BYTES {
        return too_large(size);
    }
    bytes.reserve((size as usize).saturating_sub(bytes.len()));
    let left = MAX_FILE_BYTES + 1 - bytes.len() as u64;
    if let Err(e) = file.take(left).read_to_end(&mut bytes) {
        return Node::Unreadable(e.to_string());
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return too_large(bytes.len() as u64);
    }
    Node::File(bytes)
}

/// The first `limit` bytes of `name` in `dir`, and the whole file when
/// `whole_if` holds for them (read on through the same handle).
pub fn read_opening_at(
    dir: impl AsFd,
    name: &str,
    limit: usize,
    whole_if: impl Fn(&[u8]) -> bool,
) -> (Node, Option<Node>) {
    let (file, size) = match open_regular(dir.as_fd(), name) {
        Ok(opened) => opened,
        Err(node) => return (node, None),
    };
    let mut bytes = Vec::with_capacity(size.min(limit as u64) as usize);
    let mut file = file;
    if let Err(e) = (&mut file).take(limit as u64).read_to_end(&mut bytes) {
        return (Node::Unreadable(e.to_string()), None);
    }
    if bytes.len() < limit || !whole_if(&bytes) {
        // Shorter than the limit: the prefix is the whole file.
        let whole = (bytes.len() < limit && whole_if(&bytes)).then(|| Node::File(bytes.clone()));
        return (Node::File(bytes), whole);
    }
    let prefix = Node::File(bytes.clone());
    (prefix, Some(read_rest(file, bytes, size)))
}

pub(crate) fn too_large(size: u64) -> Node {
    Node::Unreadable(format!(
        "it is {} MiB, larger than the {} MiB git standards reads from one file",
        size / (1024 * 1024),
        MAX_FILE_BYTES / (1024 * 1024)
    ))
}

/// The first entry below `fd` (depth-first) that is neither a regular file
/// nor a folder.
fn first_non_plain(fd: &OwnedFd, rel: &str, depth: usize) -> Result<Option<String>, Error> {
    if depth > 256 {
        return Ok(Some(format!("{rel} (nested too deeply)")));
    }
    for e in list(fd).map_err(|e| Error::io(rel, io(e)))? {
        let name = String::from_utf8_lossy(&e.name).into_owned();
        let path = join(rel, &name);
        match e.kind {
            FileType::RegularFile => {}
            FileType::Directory => {
                let sub = rfs::openat(fd, e.name.as_slice(), DIR_FLAGS, Mode::empty())
                    .map_err(|err| Error::io(&path, io(err)))?;
                if let Some(bad) = first_non_plain(&sub, &path, depth + 1)? {
                    return Ok(Some(bad));
                }
            }
            _ => return Ok(Some(path)),
        }
    }
    Ok(None)
}

fn remove_contents(fd: &OwnedFd) -> Result<(), Errno> {
    for e in list(fd)? {
        if e.kind == FileType::Directory {
            let sub = rfs::openat(fd, e.name.as_slice(), DIR_FLAGS, Mode::empty())?;
            remove_contents(&sub)?;
            rfs::unlinkat(fd, e.name.as_slice(), AtFlags::REMOVEDIR)?;
        } else {
            rfs::unlinkat(fd, e.name.as_slice(), AtFlags::empty())?;
        }
    }
    Ok(())
}

/// The prefix of every temporary file a writer makes.
pub const TEMP_PREFIX: &str = ".git-standards-";
const TEMP_SUFFIX: &str = ".tmp";

/// The process that made a temporary file, from its name
/// `.git-standards-<pid>-<stamp>-<n>.tmp`.
fn temp_owner(name: &str) -> Option<i32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?.strip_suffix(TEMP_SUFFIX)?;
    let mut parts = rest.split('-');
    let pid = parts.next()?.parse().ok()?;
    let _stamp: u128 = parts.next()?.parse().ok()?;
    let _n: u32 = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some(pid)
}

/// Removes the temporary files in `dir` whose writer is no longer running
/// (a `kill -9` mid-write leaves them; `git add -A` would commit them).
pub fn sweep_stale_temps(dir: &OwnedFd) -> usize {
    let Ok(entries) = list(dir) else { return 0 };
    let mut removed = 0;
    for e in entries {
        let Ok(name) = std::str::from_utf8(&e.name) else {
            continue;
        };
        let Some(pid) = temp_owner(name) else {
            continue;
        };
        if e.kind != FileType::RegularFile || process_alive(pid) {
            continue;
        }
        if rfs::unlinkat(dir, name, AtFlags::empty()).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn process_alive(pid: i32) -> bool {
    if pid == std::process::id() as i32 {
        return true;
    }
    match rustix::process::Pid::from_raw(pid) {
        // EPERM means it exists but belongs to someone else.
        Some(p) => !matches!(rustix::process::test_kill_process(p), Err(Errno::SRCH)),
        None => true,
    }
}

/// A temporary file in a verified folder, removed (by handle) when dropped.
/// Created with mode 0666 before the umask, like any new file (not
/// `tempfile`'s 0600).
struct TempFile<'a> {
    dir: &'a OwnedFd,
    name: String,
    file: std::fs::File,
}

impl<'a> TempFile<'a> {
    fn create(dir: &'a OwnedFd) -> std::io::Result<TempFile<'a>> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut last = Errno::EXIST;
        for attempt in 0..16u32 {
            let name = format!(
                "{TEMP_PREFIX}{}-{stamp}-{attempt}{TEMP_SUFFIX}",
                std::process::id()
            );
            match rfs::openat(dir, name.as_str(), flags, Mode::from_raw_mode(0o666)) {
                Ok(fd) => {
                    return Ok(TempFile {
                        dir,
                        name,
                        file: std::fs::File::from(fd),
                    })
                }
                Err(Errno::EXIST) => last = Errno::EXIST,
                Err(e) => return Err(io(e)),
            }
        }
        Err(io(last))
    }
}

impl Drop for TempFile<'_> {
    fn drop(&mut self) {
        // After a rename this name is gone; after a hard link the target keeps the data.
        let _ = rfs::unlinkat(self.dir, self.name.as_str(), AtFlags::empty());
    }
}

/// Takes the exclusive OS lock of `file`, trying every `poll` until `wait`
/// has passed: `Ok(false)` when another process still holds it then.
pub fn lock_within(
    file: &std::fs::File,
    wait: std::time::Duration,
    poll: std::time::Duration,
) -> std::io::Result<bool> {
    let deadline = std::time::Instant::now() + wait;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(poll);
            }
            Err(std::fs::TryLockError::WouldBlock) => return Ok(false),
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_refuse_links_fifos_and_oversized_prefixes_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/f.md"), "hello").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "secret").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("a/link")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), root.join("a/l.md")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            root.join("a/fifo.md").as_path(),
            FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let f = Folders::new(root);
        assert_eq!(f.read("a/b/f.md"), Node::File(b"hello".to_vec()));
        assert_eq!(f.read_prefix("a/b/f.md", 2), Node::File(b"he".to_vec()));
        assert_eq!(f.read("a/b"), Node::Dir);
        assert_eq!(f.read("a/link/secret.md"), Node::Symlink);
        assert_eq!(f.read("a/l.md"), Node::Symlink);
        assert_eq!(f.read("a/b/f.md/x"), Node::Missing);
        assert_eq!(f.read("a/../a/b/f.md"), Node::Missing);
        assert!(matches!(f.read("a/fifo.md"), Node::Unreadable(why) if why.contains("FIFO")));
    }

    #[test]
    fn a_cached_folder_swapped_for_a_link_is_not_followed_by_writes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let outside = tempfile::tempdir().unwrap();
        let f = Folders::new(root);
        f.atomic_write("d/one.md", b"1", false).unwrap();
        // Swap the verified folder for a link: the handle still names the
        // original folder (now moved), never the link's target.
        std::fs::rename(root.join("d"), root.join("moved")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("d")).unwrap();
        f.atomic_write("d/two.md", b"2", false).unwrap();
        assert!(root.join("moved/two.md").is_file());
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        // A fresh lookup refuses the link.
        let e = Folders::new(root)
            .atomic_write("d/three.md", b"3", false)
            .unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
    }

    #[test]
    fn failed_writes_remove_the_folders_they_created_and_stale_temps_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("x")).unwrap();
        std::fs::write(root.join("x/y"), "file in the way").unwrap();
        let f = Folders::new(root);
        let err = f.atomic_write("x/y/z.md", b"1", false).unwrap_err();
        assert!(err.to_string().contains("not a normal folder"), "{err}");
        // A name the file system rejects fails after `e/f` was created: both go again.
        let long = format!("e/f/{}.md", "n".repeat(300));
        assert!(f.atomic_write(&long, b"1", false).is_err());
        assert!(!root.join("e").exists(), "the created folders were removed");
        // Stale temporary files of a dead process go; others stay.
        let stale = format!("{TEMP_PREFIX}999999999-1-0{TEMP_SUFFIX}");
        std::fs::write(root.join("x").join(&stale), "debris").unwrap();
        std::fs::write(root.join("x/.git-standards-notes.tmp"), "mine").unwrap();
        Folders::new(root)
            .atomic_write("x/w.md", b"1", false)
            .unwrap();
        assert!(!root.join("x").join(&stale).exists());
        assert!(root.join("x/.git-standards-notes.tmp").exists());
        assert_eq!(temp_owner(&stale), Some(999999999));
        // An existing file is never replaced by a create.
        assert!(matches!(
            Folders::new(root).atomic_write("x/w.md", b"2", false),
            Err(Error::AlreadyExists { .. })
        ));
        assert_eq!(std::fs::read(root.join("x/w.md")).unwrap(), b"1");
    }
}
