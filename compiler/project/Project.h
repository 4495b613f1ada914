//===- Project.h - modules, import resolution, launches across files -*- C++ -*-===//
/// \file
/// The project model that sema asks for the names a file imports
/// (rust-analyzer's base-db over the FileSet, pyright's import resolution):
///
/// - **Search roots**, in pyright's order: the project root (Config.h), the
///   `extraPaths` of the settings and then of the project's toml, the
///   project's `src/`, the parent of the importing file's top package (the
///   `__init__.py` chain above it), and the importing file's own directory
///   (Python's `sys.path[0]` for a script).
/// - **Module name → file**: `a.b` is `a/b.py` or `a/b/__init__.py` under the
///   first root that has it; a directory without `__init__.py` is a namespace
///   package (submodules only).
/// - **Modules**: a file is parsed and discovered once per content hash, on
///   first use, into an immutable Module (the same ParsedFile + ModuleInfo
///   the checked file gets) shared by every importer and thread.
/// - **Symbols**: resolve() gives what a qualified path from ModuleInfo's
///   imports means (`.utils.exp2`, `pkg.ops`, `tl.math.exp2`): a module, a
///   function (with its module), a module-level value, a path outside the
///   project that sema models itself (`triton.*`, `math.*`), or Unknown. It
///   follows Python: attributes of a module first, then its submodules;
///   re-exports through `__init__.py`, alias chains, `from m import *` with
///   m's static `__all__` or public names.
/// - **Launches and calls across files**: whether some other file of the
///   project launches a @jit function (`k[grid](...)`) or calls it from its
///   own @jit code, found by an index of the identifiers written before a
///   `[` or a `(` in every project file (one text scan per file), parsing
///   only the files that name the function there. With an index folder
///   (setIndexDirectory: the command line), each root's index is saved
///   between runs (LaunchIndexFile.h) and a later run reads only the files
///   whose size or modification time changed.
///
/// Invariants: no LSP or JSON types; nothing here reports a problem in the
/// user's code; what cannot be resolved is Unknown (never a guess); every
/// method is safe to call from several threads at once.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_PROJECT_PROJECT_H
#define TESSEL_COMPILER_PROJECT_PROJECT_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/project/Config.h"
#include "compiler/project/FileSet.h"
#include "compiler/project/LaunchIndexFile.h"

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::project {

/// Where a module sits, as an importer: enough to resolve its relative
/// imports and to find its search roots.
struct ModuleRef {
  std::string Path;       ///< absolute file path ("" for a buffer with no file)
  std::string Name;       ///< dotted module name ("pkg.ops.utils"; the stem for a lone script)
  bool IsPackage = false; ///< an `__init__.py`
};

/// One module of the project, parsed and discovered once, then shared.
struct Module {
  ModuleRef Ref;
  uint64_t Hash = 0;
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  /// `__all__` when the module assigns it a literal list or tuple of strings.
  std::optional<std::vector<std::string>> All;
};

/// What a qualified path means in the project.
struct Symbol {
  enum class Kind {
    Unknown,  ///< not resolvable statically: stay silent
    External, ///< outside the project, modelled by sema (`triton.language.exp`): Path
    Module,   ///< a module (Mod) or a namespace package (Mod null): Path is its name
    Function, ///< a top-level `def` (Def) of Mod
    Global,   ///< a module-level assignment (Global) of Mod
  };
  Kind K = Kind::Unknown;
  std::string Path;
  std::shared_ptr<const Module> Mod;
  const ast::FunctionDefStmt *Def = nullptr;
  const GlobalSymbol *Global = nullptr;
  /// Found through `from m import *` of a module outside the project: the
  /// name may not exist there.
  bool ViaStar = false;
};

/// The other files an analysis read, by path, with their content hash (0:
/// absent): equal reads and equal own inputs mean an equal analysis.
using Reads = std::map<std::string, uint64_t>;

/// Qualified paths sema models itself, never looked up in the project.
bool isExternalRoot(std::string_view Head);

/// Every ASCII identifier written in Text (a lexical scan: comments and
/// strings included), each once: what a change of a file can have started
/// to launch, call or re-export.
std::set<std::string> identifiersIn(std::string_view Text);

class Project {
public:
  /// ExtraPaths: the editor's or command line's `extraPaths`, searched
  /// before the project's own settings.
  explicit Project(std::vector<std::string> ExtraPaths = {});
  Project(const Project &) = delete;
  Project &operator=(const Project &) = delete;

  FileSet &files() { return Files; }

  /// The settings that apply to the file at Path (cached per directory).
  Config configFor(const std::string &Path);
  /// The search roots for imports written in the file at Path, in order.
  std::vector<std::string> searchRoots(const std::string &Path);
  /// The module the file at Path is, as its importers name it.
  ModuleRef refOf(const std::string &Path);
  /// The module in the file at Path, parsed on first use (and again after its
  /// contents change); null when the file cannot be read.
  std::shared_ptr<const Module> moduleAt(const std::string &Path);
  /// discover() of a parsed file with the project answering what its imports
  /// of project modules stand for (`from pkg.triton_utils import tl, triton`
  /// as triton), as every module of the project is discovered: the one way
  /// sema and the tools discover a file on disk. A file with no path is
  /// discovered alone.
  ModuleInfo discoverFile(const ParsedFile &File, ProblemSink &Sink);
  /// The resolver discoverFile gives discovery for a module at From: a path
  /// resolved over the modules' bare tables (discovered without a resolver),
  /// so resolving never waits on a module being discovered.
  ExternalResolver resolverFor(const ModuleRef &From);
  /// Do the files a discovery read through the project (ModuleInfo::
  /// ProjectReads) still hash as they did?
  bool readsCurrent(const ModuleInfo &Info);

  /// What Dotted means seen from the module From: a path as
  /// ModuleInfo::Imports holds it, absolute (`pkg.ops.exp2`) or relative
  /// (`..ops.exp2`). Every module it reads goes to R.
  Symbol resolve(const std::string &Dotted, const ModuleRef &From, Reads *R = nullptr);
  /// Name as an attribute of module M: its namespace, then its submodules.
  Symbol member(const std::shared_ptr<const Module> &M, const std::string &Name, Reads *R = nullptr);
  /// The value a module-level global is bound to, resolved when it names
  /// something (`exp2 = tl.math.exp2`, `helper = other.helper`).
  Symbol globalValue(const std::shared_ptr<const Module> &M, const GlobalSymbol &G, Reads *R = nullptr);
  /// The submodules and subpackages of the package Name (absolute or
  /// relative to From; "" lists the top-level modules of From's search
  /// roots), sorted, each once.
  std::vector<std::string> submodules(const std::string &Name, const ModuleRef &From);
  /// Dotted made absolute for From ("" when it climbs above the top package).
  static std::string absolute(const std::string &Dotted, const ModuleRef &From);

  /// The files scanned are those under the project root (Config.h); with none,
  /// those of the defining file's top package, and none for a lone script.
  /// Does a file of the project other than the one defining it launch the
  /// @jit function Name defined in the file at DefPath (`Name[grid](...)`,
  /// through any import of it)?
  bool launchedElsewhere(const std::string &DefPath, const std::string &Name);
  /// Does a @jit function of another file of the project call (or name) the
  /// @jit function Name defined in the file at DefPath, through any import
  /// of it? Then it is a helper of that file's kernels.
  bool calledElsewhere(const std::string &DefPath, const std::string &Name);
  /// Every `.py` file under Dir (sorted; hidden directories and caches
  /// skipped; at most MaxScannedFiles).
  std::vector<std::string> pythonFiles(const std::string &Dir);
  static constexpr size_t MaxScannedFiles = 20000;

  /// A file changed on disk (a file watcher's event): its contents are read
  /// again on next use. Structural (it was created or deleted, or it is a
  /// settings file) also forgets every module lookup, search root, setting
  /// and stat result, since any import may now resolve elsewhere.
  void fileChanged(const std::string &Path, bool Structural);
  /// An open buffer now overrides (Text) or no longer overrides (nullopt)
  /// the file at Path: the FileSet's overlay, plus the lookups a buffer with
  /// no file on disk may change. False when what importers read is the same
  /// text as before (a buffer opened unchanged from disk).
  bool setBuffer(const std::string &Path, std::optional<std::string> Text);
  /// Reads every file of Paths on up to MaxThreads threads and parses and
  /// discovers those that name `triton` or `jit` (a workspace index: later
  /// imports find them ready; the others are parsed when imported), then
  /// builds the launch index of each of their project roots. Progress(Done)
  /// is called after each file, from any of those threads; a set Cancel stops
  /// it early. Returns the number of files read.
  size_t preload(const std::vector<std::string> &Paths, unsigned MaxThreads,
                 const std::function<void(size_t Done)> &Progress, const std::atomic<bool> *Cancel = nullptr);

  /// Keeps the launch index of each root in Dir between runs: a root's
  /// saved index is read on first use and answers for every file that stats
  /// as it did. Call before the first lookup.
  void setIndexDirectory(std::string Dir);
  /// Writes the index of every root used since it was read, when it now
  /// says something the saved one does not. A failed write (read-only or
  /// full disk) loses nothing but the next run's head start.
  void saveIndexes();

private:
  /// Raw: through the modules' bare tables (loadModule's Raw), the walk
  /// that discovery's resolver takes; else through the modules themselves.
  Symbol resolveIn(const std::string &Absolute, const ModuleRef &From, Reads *R, int Depth, bool Raw);
  Symbol memberIn(const std::shared_ptr<const Module> &M, const std::string &Name, Reads *R, int Depth, bool Raw);
  Symbol globalIn(const std::shared_ptr<const Module> &M, const GlobalSymbol &G, Reads *R, int Depth, bool Raw);
  Symbol moduleSymbol(const std::string &Name, const ModuleRef &From, Reads *R, bool Raw);
  /// The module at Path, parsed once per content (and discovered again when
  /// a file its discovery read changed). Raw: discovered without a resolver
  /// (a bare table of its names); else with resolverFor, sharing the bare
  /// module where the file imports nothing the project could answer for.
  std::shared_ptr<const Module> loadModule(const std::string &Path, bool Raw);
  /// The file of module Name for an importer at FromPath: "" when none, the
  /// directory itself for a namespace package.
  std::string findModule(const std::string &Name, const std::string &FromPath);
  std::string packageRootOf(const std::string &Dir);
  /// Identifiers written before a `[` (BeforeBracket) or a `(` (BeforeParen)
  /// in the files under Root, with the files and which of the two.
  enum : uint8_t { BeforeBracket = 1, BeforeParen = 2 };
  using NameIndex = std::unordered_map<std::string, std::vector<std::pair<std::string, uint8_t>>>;
  /// Brings the index of Root up to date: files whose hash changed are
  /// scanned again, the others keep their entries (IndexMu held).
  void updateIndexLocked(const std::string &Root);
  /// The root whose index answers for the file at DefPath ("" for none).
  std::string indexRootOf(const std::string &DefPath);
  /// The files other than DefPath that write Name before one of Marks.
  std::vector<std::string> mentions(const std::string &DefPath, const std::string &Name, uint8_t Marks);
  /// Does the dotted name Dotted, read in module M, mean the function Name of DefPath?
  bool names(const std::shared_ptr<const Module> &M, const std::string &Dotted, const std::string &DefPath,
             const std::string &Name);

  FileSet Files;
  std::vector<std::string> ExtraPaths;
  std::mutex Mu;
  std::unordered_map<std::string, Config> Configs;                 ///< by directory
  std::unordered_map<std::string, std::vector<std::string>> Roots; ///< by directory
  std::unordered_map<std::string, std::string> Found;              ///< "dir\0name" -> file
  struct Cached {
    uint64_t Hash = 0;
    uint64_t Checked = 0; ///< the FileSet generation its reads were last found current in
    std::shared_future<std::shared_ptr<const Module>> Mod;
  };
  std::unordered_map<std::string, Cached> Modules;    ///< by path
  std::unordered_map<std::string, Cached> RawModules; ///< by path: loadModule's bare tables
  /// Bumped by every structural change: cached file lists are then stale.
  std::atomic<uint64_t> Structure{1};
  /// A file scanned in this process: the contents' hash (and the disk
  /// stat it was read under, MtimeNs 0 for a buffer) and its names.
  struct ScannedFile {
    uint64_t Hash = 0;
    uint64_t Size = 0;
    int64_t MtimeNs = 0;
    std::vector<std::pair<std::string, uint8_t>> Names;
  };
  /// What is known of a row of the saved index.
  enum class SavedRow : uint8_t { Unchecked, Current, Stale };
  struct CachedIndex {
    uint64_t Generation = 0; ///< the FileSet generation it reflects
    uint64_t ListStructure = 0;
    std::vector<std::string> List; ///< pythonFiles(root)
    /// The files scanned here (those the saved index does not answer for).
    std::unordered_map<std::string, ScannedFile> PerFile;
    NameIndex Names;
    /// The index an earlier run saved (setIndexDirectory), answering for
    /// its Current rows; the others were scanned again into PerFile.
    bool LoadTried = false;
    std::optional<LaunchIndexFile> Saved;
    std::vector<std::string> SavedPaths; ///< absolute, by row
    std::unordered_map<std::string, uint32_t> SavedRows;
    std::vector<SavedRow> SavedState;
    bool Dirty = false; ///< differs from the index on disk
  };
  /// Is the saved row still what the file holds? (IndexMu held.)
  bool savedRowCurrent(CachedIndex &Index, uint32_t Row);
  /// Guards Indexes and their contents; scans happen under it, so concurrent
  /// kernels asking about launches wait for one up-to-date index.
  std::mutex IndexMu;
  std::unordered_map<std::string, CachedIndex> Indexes; ///< by root
  std::string IndexDir;                                 ///< "" keeps indexes in memory only
};

} // namespace tessel::project

#endif // TESSEL_COMPILER_PROJECT_PROJECT_H
