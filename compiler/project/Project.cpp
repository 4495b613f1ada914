//===- Project.cpp - modules, import resolution, launches across files ----===//
/// \file
/// Every lookup is bounded (alias chains and import cycles stop at
/// MaxResolveDepth and give Unknown) and every cache sits under one mutex,
/// held only for map operations: parsing a module happens outside it, behind
/// a shared_future that later importers of the same file wait on, so each
/// version of a module is parsed once however many threads import it.
//===----------------------------------------------------------------------===//
#include "compiler/project/Project.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/support/WorkerPool.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sys/stat.h>

namespace tessel::project {

/// Alias chains and import cycles longer than this are taken as Unknown.
static constexpr int MaxResolveDepth = 24;

bool isExternalRoot(std::string_view Head) { return Head == "triton" || Head == "math" || Head == "builtins"; }

static std::string parentDir(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? std::string("/") : Path.substr(0, Slash);
}

static std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

static std::vector<std::string> splitDots(const std::string &S) {
  std::vector<std::string> Out;
  size_t Begin = 0;
  while (true) {
    size_t Dot = S.find('.', Begin);
    Out.push_back(S.substr(Begin, Dot == std::string::npos ? std::string::npos : Dot - Begin));
    if (Dot == std::string::npos)
      return Out;
    Begin = Dot + 1;
  }
}

static bool isIdentifier(const std::string &S) {
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    return false;
  return std::all_of(S.begin(), S.end(), [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || static_cast<unsigned char>(C) >= 0x80;
  });
}

/// An ASCII identifier byte (the index scan's inner loop: no locale calls).
static bool isWordByte(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_';
}

std::set<std::string> identifiersIn(std::string_view Text) {
  std::set<std::string, std::less<>> Words;
  for (size_t At = 0; At < Text.size();) {
    if (!isWordByte(Text[At])) {
      ++At;
      continue;
    }
    size_t End = At;
    while (End < Text.size() && isWordByte(Text[End]))
      ++End;
    std::string_view W = Text.substr(At, End - At);
    if (!(W[0] >= '0' && W[0] <= '9') && Words.find(W) == Words.end())
      Words.emplace(W);
    At = End;
  }
  return {Words.begin(), Words.end()};
}

Project::Project(std::vector<std::string> Extra) {
  for (const std::string &P : Extra)
    ExtraPaths.push_back(normalPath(P));
}

//===----------------------------------------------------------------------===//
// Settings and roots
//===----------------------------------------------------------------------===//

Config Project::configFor(const std::string &Path) {
  std::string Start = Files.isDirectory(Path) ? normalPath(Path) : parentDir(normalPath(Path));
  {
    std::lock_guard<std::mutex> L(Mu);
    if (auto It = Configs.find(Start); It != Configs.end())
      return It->second;
  }
  Config C;
  for (std::string Dir = Start;; Dir = parentDir(Dir)) {
    bool Toml = Files.isFile(Dir + "/tessel.toml"), Py = Files.isFile(Dir + "/pyproject.toml");
    if (Toml || Py || Files.isFile(Dir + "/setup.py") || Files.isFile(Dir + "/setup.cfg") ||
        Files.isDirectory(Dir + "/.git") || Files.isFile(Dir + "/.git")) {
      C.Root = Dir;
      if (Toml || Py) {
        std::string Source = Dir + (Toml ? "/tessel.toml" : "/pyproject.toml");
        FileSet::Contents Text = Files.contents(Source);
        std::string Why;
        Config Parsed;
        Parsed.Root = Dir;
        if (Text.Text && parseConfig(*Text.Text, Toml ? "" : "tool.tessel", Dir, Parsed, Why)) {
          C.ExtraPaths = std::move(Parsed.ExtraPaths);
          C.References = std::move(Parsed.References);
          C.Source = Source;
        } else if (Text.Text) {
          C.Problem = Source + ": " + Why;
        }
      }
      break;
    }
    if (Dir == "/" || Dir == ".")
      break;
  }
  std::lock_guard<std::mutex> L(Mu);
  return Configs.emplace(Start, std::move(C)).first->second;
}

std::string Project::packageRootOf(const std::string &Dir) {
  std::string D = Dir;
  for (int Guard = 0; Guard < 64 && Files.isFile(D + "/__init__.py"); ++Guard) {
    std::string Up = parentDir(D);
    if (Up == D)
      break;
    D = Up;
  }
  return D;
}

std::vector<std::string> Project::searchRoots(const std::string &Path) {
  std::string Dir = parentDir(normalPath(Path));
  {
    std::lock_guard<std::mutex> L(Mu);
    if (auto It = Roots.find(Dir); It != Roots.end())
      return It->second;
  }
  Config C = configFor(Path);
  std::vector<std::string> Out;
  auto Add = [&](const std::string &R) {
    if (!R.empty() && std::find(Out.begin(), Out.end(), R) == Out.end())
      Out.push_back(R);
  };
  Add(C.Root);
  for (const std::string &E : ExtraPaths)
    Add(E);
  for (const std::string &E : C.ExtraPaths)
    Add(E);
  if (!C.Root.empty() && Files.isDirectory(C.Root + "/src"))
    Add(C.Root + "/src");
  Add(packageRootOf(Dir));
  Add(Dir);
  std::lock_guard<std::mutex> L(Mu);
  return Roots.emplace(Dir, std::move(Out)).first->second;
}

ModuleRef Project::refOf(const std::string &RawPath) {
  ModuleRef Ref;
  Ref.Path = normalPath(RawPath);
  std::string Dir = parentDir(Ref.Path), File = baseName(Ref.Path);
  std::string Stem =
      File.size() > 3 && File.compare(File.size() - 3, 3, ".py") == 0 ? File.substr(0, File.size() - 3) : File;
  Ref.IsPackage = Stem == "__init__";
  std::vector<std::string> Parts;
  if (!Ref.IsPackage)
    Parts.push_back(Stem);
  std::string D = Dir;
  bool Chain = false;
  for (int Guard = 0; Guard < 64 && Files.isFile(D + "/__init__.py"); ++Guard) {
    Parts.push_back(baseName(D));
    Chain = true;
    std::string Up = parentDir(D);
    if (Up == D)
      break;
    D = Up;
  }
  if (!Chain) {
    // A namespace package: named from the first configured root above it.
    Config C = configFor(Ref.Path);
    std::vector<std::string> Candidates{C.Root};
    if (!C.Root.empty())
      Candidates.push_back(C.Root + "/src");
    Candidates.insert(Candidates.end(), ExtraPaths.begin(), ExtraPaths.end());
    Candidates.insert(Candidates.end(), C.ExtraPaths.begin(), C.ExtraPaths.end());
    std::string Best;
    for (const std::string &R : Candidates)
      if (!R.empty() && Dir.size() > R.size() && Dir.compare(0, R.size(), R) == 0 && Dir[R.size()] == '/' &&
          R.size() > Best.size())
        Best = R;
    if (!Best.empty()) {
      std::vector<std::string> Rel;
      for (std::string X = Dir; X != Best; X = parentDir(X))
        Rel.push_back(baseName(X));
      if (std::all_of(Rel.begin(), Rel.end(), isIdentifier))
        Parts.insert(Parts.end(), Rel.begin(), Rel.end());
    }
  }
  std::reverse(Parts.begin(), Parts.end());
  for (const std::string &P : Parts)
    Ref.Name += (Ref.Name.empty() ? "" : ".") + P;
  return Ref;
}

std::string Project::findModule(const std::string &Name, const std::string &FromPath) {
  std::string Key = parentDir(normalPath(FromPath)) + '\0' + Name;
  {
    std::lock_guard<std::mutex> L(Mu);
    if (auto It = Found.find(Key); It != Found.end())
      return It->second;
  }
  std::string Rel = Name;
  std::replace(Rel.begin(), Rel.end(), '.', '/');
  std::string Result, Namespace;
  for (const std::string &Root : searchRoots(FromPath)) {
    std::string Base = Root + "/" + Rel;
    if (Files.isFile(Base + ".py")) {
      Result = Base + ".py";
      break;
    }
    if (Files.isFile(Base + "/__init__.py")) {
      Result = Base + "/__init__.py";
      break;
    }
    if (Namespace.empty() && Files.isDirectory(Base))
      Namespace = Base;
  }
  if (Result.empty())
    Result = Namespace;
  std::lock_guard<std::mutex> L(Mu);
  return Found.emplace(std::move(Key), std::move(Result)).first->second;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// `__all__ = [...]` or `(...)` of string literals, as discovery evaluated it.
static std::optional<std::vector<std::string>> staticAll(const ModuleInfo &Info) {
  auto It = Info.Globals.find("__all__");
  if (It == Info.Globals.end() || !It->second.Value.isSequence())
    return std::nullopt;
  std::vector<std::string> Names;
  for (const PyValue &V : It->second.Value.elements()) {
    if (!V.isStr())
      return std::nullopt;
    Names.push_back(V.asStr());
  }
  return Names;
}

std::shared_ptr<const Module> Project::moduleAt(const std::string &RawPath) { return loadModule(RawPath, false); }

ExternalResolver Project::resolverFor(const ModuleRef &From) {
  return [this, From](const std::string &Dotted, std::map<std::string, uint64_t> &Read) {
    std::string Abs = absolute(Dotted, From);
    if (Abs.empty())
      return std::string();
    Symbol S = resolveIn(Abs, From, &Read, 0, /*Raw=*/true);
    return S.K == Symbol::Kind::External ? S.Path : std::string();
  };
}

ModuleInfo Project::discoverFile(const ParsedFile &File, ProblemSink &Sink) {
  const std::string &Path = File.text().path();
  if (Path.empty() || Path == "-")
    return discover(File.module(), Sink);
  return discover(File.module(), Sink, resolverFor(refOf(Path)));
}

/// Are the files that Info's discovery read through the project as they were?
bool Project::readsCurrent(const ModuleInfo &Info) {
  for (const auto &[Path, Hash] : Info.ProjectReads)
    if (Files.contents(Path).Hash != Hash)
      return false;
  return true;
}

/// Would discovery with Resolve bind anything differently from Bare's (a
/// module discovered without it)? Asks what each import and module-level
/// alias of a project path stands for; a decorator left unresolved may
/// resolve through a module attribute (`@utils.triton.jit`), so it counts as
/// a difference.
static bool answersDiffer(const ModuleInfo &Bare, const ExternalResolver &Resolve) {
  Reads Read; // what the answers read: none is kept where none differs
  if (!Bare.UnresolvedJit.empty())
    return true;
  if (!Bare.ImportsProjectPaths)
    return false;
  auto Differs = [&](const std::string &P) {
    std::string_view Head = std::string_view(P).substr(0, P.find('.'));
    return !isExternalRoot(Head) && !Resolve(P, Read).empty();
  };
  for (const auto &[Local, Path] : Bare.Imports)
    if (Differs(Path))
      return true;
  for (const auto &[Name, G] : Bare.Globals)
    if (G.Value.kind() == PyValue::Kind::Qualified && Differs(G.Value.qualifiedPath()))
      return true;
  return false;
}

std::shared_ptr<const Module> Project::loadModule(const std::string &RawPath, bool Raw) {
  std::string Path = normalPath(RawPath);
  FileSet::Contents C = Files.contents(Path);
  if (!C.Text)
    return nullptr;
  std::promise<std::shared_ptr<const Module>> Promise;
  {
    std::unique_lock<std::mutex> L(Mu);
    Cached &Entry = (Raw ? RawModules : Modules)[Path];
    if (Entry.Hash == C.Hash && Entry.Mod.valid()) {
      std::shared_future<std::shared_ptr<const Module>> F = Entry.Mod;
      uint64_t Gen = Files.generation();
      bool Checked = Entry.Checked == Gen;
      L.unlock();
      std::shared_ptr<const Module> Got = F.get(); // parsed, or being parsed by another thread
      // What its imports mean may have changed with another file (a
      // re-export dropped): then it is discovered again, below. Asked once
      // per generation of the file set (nothing changed in between).
      if (!Got || Checked || readsCurrent(Got->Info)) {
        L.lock();
        if (Entry.Mod.valid() && Entry.Hash == C.Hash)
          Entry.Checked = std::max(Entry.Checked, Gen);
        return Got;
      }
      L.lock();
      if (Entry.Mod.valid() && Entry.Hash == C.Hash) {
        std::shared_future<std::shared_ptr<const Module>> Now = Entry.Mod;
        if (Now.wait_for(std::chrono::seconds(0)) == std::future_status::ready && Now.get() != Got) {
          L.unlock();
          return Now.get(); // another thread renewed it meanwhile
        }
      }
    }
    Entry.Hash = C.Hash;
    Entry.Mod = Promise.get_future().share();
  }
  auto M = std::make_shared<Module>();
  M->Ref = refOf(Path);
  M->Hash = C.Hash;
  ProblemSink Ignored; // problems of an imported module are its own check's business
  if (Raw) {
    // What discovery alone gives (no resolver): the tables that resolving
    // another module's imports walks. Resolution never reaches a module
    // being discovered with a resolver, so no thread waits on itself or on
    // a thread that waits on it.
    M->File = ParsedFile::parse(std::make_shared<SourceText>(*C.Text, Path));
    M->Info = discover(M->File->module(), Ignored);
  } else {
    std::shared_ptr<const Module> Bare = loadModule(Path, true);
    ExternalResolver Resolve = resolverFor(M->Ref);
    bool Copied = false;
    if (Bare && Bare->Hash == C.Hash) {
      M->File = Bare->File;
      // Where no import or alias of a project path stands for triton and no
      // decorator was left unresolved, discovery with the resolver gives the
      // bare tables again (and keeps no reads: no answer changed a meaning).
      if (!answersDiffer(Bare->Info, Resolve)) {
        M->Info = Bare->Info;
        Copied = true;
      }
    } else {
      M->File = ParsedFile::parse(std::make_shared<SourceText>(*C.Text, Path));
    }
    if (!Copied)
      M->Info = discover(M->File->module(), Ignored, Resolve);
  }
  M->All = staticAll(M->Info);
  std::shared_ptr<const Module> Done = std::move(M);
  Promise.set_value(Done);
  return Done;
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

std::string Project::absolute(const std::string &Dotted, const ModuleRef &From) {
  if (Dotted.empty() || Dotted[0] != '.')
    return Dotted;
  size_t Level = 0;
  while (Level < Dotted.size() && Dotted[Level] == '.')
    ++Level;
  std::string Rest = Dotted.substr(Level);
  std::vector<std::string> Package = From.Name.empty() ? std::vector<std::string>{} : splitDots(From.Name);
  if (!From.IsPackage && !Package.empty())
    Package.pop_back();
  for (size_t I = 1; I < Level; ++I) {
    if (Package.empty())
      return {};
    Package.pop_back();
  }
  if (Package.empty())
    return {}; // "attempted relative import with no known parent package"
  std::string Out;
  for (const std::string &P : Package)
    Out += (Out.empty() ? "" : ".") + P;
  return Rest.empty() ? Out : Out + "." + Rest;
}

std::vector<std::string> Project::submodules(const std::string &Name, const ModuleRef &From) {
  namespace fs = std::filesystem;
  std::string Abs = Name.empty() ? Name : absolute(Name, From);
  if (!Name.empty() && Abs.empty())
    return {};
  std::string Rel = Abs;
  std::replace(Rel.begin(), Rel.end(), '.', '/');
  std::vector<std::string> Out;
  for (const std::string &Root : searchRoots(From.Path)) {
    std::string Dir = Rel.empty() ? Root : Root + "/" + Rel;
    if (!Files.isDirectory(Dir))
      continue;
    std::error_code EC;
    for (fs::directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC)) {
      std::string Entry = It->path().filename().string();
      std::error_code TypeEC;
      if (It->is_directory(TypeEC)) {
        if (isIdentifier(Entry) && Files.isFile(Dir + "/" + Entry + "/__init__.py"))
          Out.push_back(Entry);
      } else if (Entry.size() > 3 && Entry.compare(Entry.size() - 3, 3, ".py") == 0) {
        std::string Stem = Entry.substr(0, Entry.size() - 3);
        if (Stem != "__init__" && isIdentifier(Stem))
          Out.push_back(Stem);
      }
    }
    if (!Rel.empty())
      break; // the first root that has the package is the one Python imports
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

Symbol Project::resolve(const std::string &Dotted, const ModuleRef &From, Reads *R) {
  std::string Abs = absolute(Dotted, From);
  if (Abs.empty())
    return {};
  return resolveIn(Abs, From, R, 0, false);
}

Symbol Project::member(const std::shared_ptr<const Module> &M, const std::string &Name, Reads *R) {
  return memberIn(M, Name, R, 0, false);
}

Symbol Project::globalValue(const std::shared_ptr<const Module> &M, const GlobalSymbol &G, Reads *R) {
  return globalIn(M, G, R, 0, false);
}

Symbol Project::moduleSymbol(const std::string &Name, const ModuleRef &From, Reads *R, bool Raw) {
  std::string File = findModule(Name, From.Path);
  if (File.empty()) {
    // Absent: the reads name where it would be (hash 0), so a module created
    // there later makes the analyses that looked for it stale.
    if (R) {
      std::string Rel = Name;
      std::replace(Rel.begin(), Rel.end(), '.', '/');
      for (const std::string &Root : searchRoots(From.Path)) {
        R->emplace(Root + "/" + Rel + ".py", 0);
        R->emplace(Root + "/" + Rel + "/__init__.py", 0);
      }
    }
    return {};
  }
  Symbol S;
  S.K = Symbol::Kind::Module;
  S.Path = Name;
  if (File.size() < 3 || File.compare(File.size() - 3, 3, ".py") != 0)
    return S; // a namespace package
  S.Mod = loadModule(File, Raw);
  if (!S.Mod)
    return {};
  if (R)
    (*R)[S.Mod->Ref.Path] = S.Mod->Hash;
  return S;
}

Symbol Project::resolveIn(const std::string &Abs, const ModuleRef &From, Reads *R, int Depth, bool Raw) {
  if (Depth > MaxResolveDepth)
    return {};
  std::vector<std::string> Parts = splitDots(Abs);
  if (isExternalRoot(Parts[0])) {
    Symbol S;
    S.K = Symbol::Kind::External;
    S.Path = Abs;
    return S;
  }
  Symbol Cur = moduleSymbol(Parts[0], From, R, Raw);
  for (size_t I = 1; I < Parts.size() && Cur.K != Symbol::Kind::Unknown; ++I) {
    if (Cur.K == Symbol::Kind::External) {
      Cur.Path += "." + Parts[I];
    } else if (Cur.K == Symbol::Kind::Module && Cur.Mod) {
      Cur = memberIn(Cur.Mod, Parts[I], R, Depth + 1, Raw);
    } else if (Cur.K == Symbol::Kind::Module) {
      Cur = moduleSymbol(Cur.Path + "." + Parts[I], From, R, Raw);
    } else {
      return {}; // an attribute of a function or a value: not followed
    }
  }
  return Cur;
}

Symbol Project::globalIn(const std::shared_ptr<const Module> &M, const GlobalSymbol &G, Reads *R, int Depth, bool Raw) {
  if (G.Value.kind() == PyValue::Kind::Qualified) {
    std::string Abs = absolute(G.Value.qualifiedPath(), M->Ref);
    return Abs.empty() ? Symbol{} : resolveIn(Abs, M->Ref, R, Depth + 1, Raw);
  }
  Symbol S;
  S.Mod = M;
  if (G.Value.kind() == PyValue::Kind::Function) {
    S.K = Symbol::Kind::Function;
    S.Def = G.Value.asFunction();
    return S;
  }
  S.K = Symbol::Kind::Global;
  S.Global = &G;
  return S;
}

Symbol Project::memberIn(const std::shared_ptr<const Module> &M, const std::string &Name, Reads *R, int Depth,
                         bool Raw) {
  if (Depth > MaxResolveDepth)
    return {};
  const ModuleInfo &Info = M->Info;
  Symbol S;
  S.Mod = M;
  // The order of KernelChecker::evalGlobal: the tables discovery keeps are
  // disjoint except for a @jit def rebound later, which Jit reflects.
  if (const JitFunction *J = Info.jit(Name); J && J->Def) {
    S.K = Symbol::Kind::Function;
    S.Def = J->Def;
    return S;
  }
  if (auto It = Info.Imports.find(Name); It != Info.Imports.end()) {
    std::string Abs = absolute(It->second, M->Ref);
    if (Abs.empty())
      return {};
    // `from . import ops` in a package's __init__ binds its own submodule:
    // resolving it through the package's namespace would come back here.
    if (M->Ref.IsPackage && Abs == M->Ref.Name + "." + Name)
      return moduleSymbol(Abs, M->Ref, R, Raw);
    return resolveIn(Abs, M->Ref, R, Depth + 1, Raw);
  }
  if (auto It = Info.Globals.find(Name); It != Info.Globals.end())
    return globalIn(M, It->second, R, Depth, Raw);
  if (auto It = Info.Functions.find(Name); It != Info.Functions.end()) {
    S.K = Symbol::Kind::Function;
    S.Def = It->second;
    return S;
  }
  if (M->Ref.IsPackage) {
    Symbol Sub = moduleSymbol(M->Ref.Name + "." + Name, M->Ref, R, Raw);
    if (Sub.K != Symbol::Kind::Unknown)
      return Sub;
  }
  for (const std::string &Star : Info.StarImports) {
    std::string Abs = absolute(Star, M->Ref);
    if (Abs.empty())
      continue;
    Symbol From = resolveIn(Abs, M->Ref, R, Depth + 1, Raw);
    if (From.K == Symbol::Kind::External) {
      From.Path += "." + Name;
      From.ViaStar = true;
      return From;
    }
    if (From.K != Symbol::Kind::Module || !From.Mod)
      continue;
    bool Exported = From.Mod->All ? std::count(From.Mod->All->begin(), From.Mod->All->end(), Name) > 0
                                  : !Name.empty() && Name[0] != '_';
    if (!Exported)
      continue;
    Symbol Found = memberIn(From.Mod, Name, R, Depth + 1, Raw);
    if (Found.K != Symbol::Kind::Unknown)
      return Found;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Launches in other files
//===----------------------------------------------------------------------===//

std::vector<std::string> Project::pythonFiles(const std::string &Dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> Out;
  std::error_code EC;
  fs::recursive_directory_iterator It(Dir, fs::directory_options::skip_permission_denied, EC), End;
  for (; !EC && It != End; It.increment(EC)) {
    const fs::directory_entry &E = *It;
    std::string Name = E.path().filename().string();
    std::error_code TypeEC;
    if (E.is_directory(TypeEC)) {
      if (Name.empty() || Name[0] == '.' || Name == "__pycache__" || Name == "node_modules" || Name == "site-packages")
        It.disable_recursion_pending();
      continue;
    }
    if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".py") == 0 && E.is_regular_file(TypeEC)) {
      Out.push_back(normalPath(E.path().string()));
      if (Out.size() >= MaxScannedFiles)
        break;
    }
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// The identifiers written before a `[` or a `(` in T, with which of the two.
static std::vector<std::pair<std::string, uint8_t>> scanNames(const std::string &T, uint8_t Bracket, uint8_t Paren) {
  std::unordered_map<std::string_view, uint8_t> Seen;
  for (size_t At = 0; At < T.size(); ++At) {
    char Ch = T[At];
    if (Ch != '[' && Ch != '(')
      continue;
    size_t End = At;
    while (End > 0 && (T[End - 1] == ' ' || T[End - 1] == '\t'))
      --End;
    size_t Begin = End;
    while (Begin > 0 && isWordByte(T[Begin - 1]))
      --Begin;
    if (Begin == End || (T[Begin] >= '0' && T[Begin] <= '9'))
      continue;
    Seen[std::string_view(T).substr(Begin, End - Begin)] |= Ch == '[' ? Bracket : Paren;
  }
  std::vector<std::pair<std::string, uint8_t>> Out;
  Out.reserve(Seen.size());
  for (const auto &[N, Marks] : Seen)
    Out.emplace_back(std::string(N), Marks);
  return Out;
}

/// A saved row whose file was modified this close to the index's write
/// may have changed again within the clock's granularity and still stat the
/// same: it is read again (git's "racy clean" entries).
static constexpr int64_t RacyWindowNs = 3'000'000'000;

bool Project::savedRowCurrent(CachedIndex &Index, uint32_t Row) {
  const IndexRow &R = Index.Saved->Rows[Row];
  const std::string &Path = Index.SavedPaths[Row];
  if (std::optional<uint64_t> H = Files.knownHash(Path))
    return *H == R.Hash;
  if (Index.SavedState[Row] == SavedRow::Current)
    return true; // fileChanged would have made it Unchecked
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
    return false;
  int64_t Mtime = int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
  return static_cast<uint64_t>(St.st_size) == R.Size && Mtime == R.MtimeNs &&
         R.MtimeNs < Index.Saved->WrittenNs - RacyWindowNs;
}

void Project::updateIndexLocked(const std::string &Root) {
  uint64_t Gen = Files.generation();
  CachedIndex &Index = Indexes[Root];
  if (Index.Generation == Gen && Index.ListStructure == Structure.load())
    return;
  if (!Index.LoadTried && !IndexDir.empty()) {
    Index.LoadTried = true;
    Index.Saved = loadLaunchIndex(IndexDir, Root);
    Index.Dirty = !Index.Saved;
    if (Index.Saved) {
      size_t N = Index.Saved->Rows.size();
      Index.SavedPaths.reserve(N);
      Index.SavedRows.reserve(N);
      for (uint32_t I = 0; I < N; ++I) {
        Index.SavedPaths.push_back(Root + "/" + Index.Saved->Rows[I].Path);
        Index.SavedRows.emplace(Index.SavedPaths.back(), I);
      }
      Index.SavedState.assign(N, SavedRow::Unchecked);
    }
  }
  // An edit of one buffer bumps the generation: only the files whose hash
  // changed are scanned again (a keystroke in a 1,000-file project must not
  // rescan all of them), and the directory walk waits for a structural change.
  if (Index.ListStructure != Structure.load()) {
    Index.ListStructure = Structure.load();
    Index.List = pythonFiles(Root);
  }
  Index.Generation = Gen;
  auto Drop = [&](const std::string &Path, const ScannedFile &F) {
    for (const auto &[N, Marks] : F.Names) {
      auto It = Index.Names.find(N);
      if (It == Index.Names.end())
        continue;
      auto &V = It->second;
      V.erase(std::remove_if(V.begin(), V.end(), [&](const auto &E) { return E.first == Path; }), V.end());
      if (V.empty())
        Index.Names.erase(It);
    }
  };
  std::vector<char> SavedListed(Index.SavedState.size(), 0);
  std::unordered_map<std::string, char> Listed;
  for (const std::string &Path : Index.List) {
    Listed.emplace(Path, 1);
    auto Slot = Index.PerFile.find(Path);
    if (Index.Saved && Slot == Index.PerFile.end()) {
      auto Row = Index.SavedRows.find(Path);
      if (Row != Index.SavedRows.end() && Index.SavedState[Row->second] != SavedRow::Stale) {
        SavedListed[Row->second] = 1;
        if (savedRowCurrent(Index, Row->second)) {
          Index.SavedState[Row->second] = SavedRow::Current;
          continue;
        }
        Index.SavedState[Row->second] = SavedRow::Stale;
      }
    }
    FileSet::Contents C = Files.contents(Path);
    if (Slot == Index.PerFile.end())
      Slot = Index.PerFile.emplace(Path, ScannedFile{}).first;
    else if (Slot->second.Hash == C.Hash && (C.Hash != 0 || Slot->second.Names.empty()))
      continue;
    ScannedFile &F = Slot->second;
    Drop(Path, F);
    F = ScannedFile{C.Hash, C.Size, C.MtimeNs, {}};
    Index.Dirty = true;
    if (!C.Text)
      continue;
    F.Names = scanNames(*C.Text, BeforeBracket, BeforeParen);
    for (const auto &[N, Marks] : F.Names)
      Index.Names[N].emplace_back(Path, Marks);
  }
  // Files gone from the listing (deleted) leave the index.
  for (auto It = Index.PerFile.begin(); It != Index.PerFile.end();) {
    if (Listed.count(It->first)) {
      ++It;
      continue;
    }
    Drop(It->first, It->second);
    It = Index.PerFile.erase(It);
    Index.Dirty = true;
  }
  for (size_t Row = 0; Row < SavedListed.size(); ++Row)
    if (!SavedListed[Row] && Index.SavedState[Row] != SavedRow::Stale) {
      Index.SavedState[Row] = SavedRow::Stale;
      Index.Dirty = true;
    }
}

std::string Project::indexRootOf(const std::string &DefPath) {
  // Without a project root, only the file's own top package is scanned (its
  // parent may be /tmp or a home directory); a lone script has no others.
  Config C = configFor(DefPath);
  std::string Root = C.Root;
  if (Root.empty()) {
    std::string Dir = parentDir(DefPath), Top = packageRootOf(Dir);
    if (Top == Dir)
      return {};
    for (Root = Dir; parentDir(Root) != Top;)
      Root = parentDir(Root);
  }
  return Root;
}

std::vector<std::string> Project::mentions(const std::string &DefPath, const std::string &Name, uint8_t Marks) {
  std::string Root = indexRootOf(DefPath);
  std::vector<std::string> Out;
  if (Root.empty())
    return Out;
  {
    std::lock_guard<std::mutex> L(IndexMu);
    updateIndexLocked(Root);
    const CachedIndex &Index = Indexes[Root];
    if (auto It = Index.Names.find(Name); It != Index.Names.end())
      for (const auto &[Path, Has] : It->second)
        if ((Has & Marks) && Path != DefPath)
          Out.push_back(Path);
    if (Index.Saved)
      for (const IndexPosting &P : Index.Saved->postings(Name))
        if ((P.Marks & Marks) && Index.SavedState[P.Row] == SavedRow::Current && Index.SavedPaths[P.Row] != DefPath)
          Out.push_back(Index.SavedPaths[P.Row]);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

void Project::fileChanged(const std::string &RawPath, bool Structural) {
  std::string Path = normalPath(RawPath);
  Files.invalidate(Path);
  {
    // A saved row found current by its stat must be looked at again.
    std::lock_guard<std::mutex> L(IndexMu);
    for (auto &[Root, Index] : Indexes)
      if (auto It = Index.SavedRows.find(Path);
          It != Index.SavedRows.end() && Index.SavedState[It->second] == SavedRow::Current)
        Index.SavedState[It->second] = SavedRow::Unchecked;
  }
  std::string Name = baseName(Path);
  if (!Structural && Name != "tessel.toml" && Name != "pyproject.toml" && Name != "setup.py" && Name != "setup.cfg")
    return;
  Files.forgetStats();
  ++Structure;
  std::lock_guard<std::mutex> L(Mu);
  Configs.clear();
  Roots.clear();
  Found.clear();
}

bool Project::setBuffer(const std::string &RawPath, std::optional<std::string> Text) {
  std::string Path = normalPath(RawPath);
  uint64_t Before = Files.contents(Path).Hash;
  // A buffer whose file is not on disk (new, unsaved) changes what imports
  // find: forget the lookups that said it was absent.
  std::error_code EC;
  bool OnDisk = std::filesystem::is_regular_file(Path, EC);
  if (Text)
    Files.setOverlay(Path, std::move(*Text));
  else
    Files.clearOverlay(Path);
  if (!OnDisk)
    fileChanged(Path, true);
  return Files.contents(Path).Hash != Before;
}

size_t Project::preload(const std::vector<std::string> &Paths, unsigned MaxThreads,
                        const std::function<void(size_t)> &Progress, const std::atomic<bool> *Cancel) {
  std::atomic<size_t> Done{0}, Read{0};
  parallelFor(Paths.size(), std::max(1u, MaxThreads), [&](size_t I) {
    if (Cancel && Cancel->load())
      return;
    // Only a file that names triton (or jit) can define a kernel or helper;
    // the others (a project's host code, tests, tools: most of a large
    // workspace's bytes) are read for the launch index and parsed only if
    // something imports them.
    FileSet::Contents C = Files.contents(Paths[I]);
    if (C.Text && (C.Text->find("triton") != std::string::npos || C.Text->find("jit") != std::string::npos)) {
      if (moduleAt(Paths[I]))
        ++Read;
    } else if (C.Text) {
      ++Read;
    }
    size_t N = ++Done;
    if (Progress)
      Progress(N);
  });
  if (Cancel && Cancel->load())
    return Read;
  // The launch index of each root the files belong to, so the first
  // keystroke does not pay for the scan.
  std::vector<std::string> IndexRoots;
  for (const std::string &P : Paths) {
    std::string Root = indexRootOf(normalPath(P));
    if (!Root.empty() && std::find(IndexRoots.begin(), IndexRoots.end(), Root) == IndexRoots.end())
      IndexRoots.push_back(Root);
  }
  for (const std::string &Root : IndexRoots) {
    std::lock_guard<std::mutex> L(IndexMu);
    updateIndexLocked(Root);
  }
  return Read;
}

void Project::setIndexDirectory(std::string Dir) {
  std::lock_guard<std::mutex> L(IndexMu);
  IndexDir = std::move(Dir);
}

void Project::saveIndexes() {
  std::lock_guard<std::mutex> L(IndexMu);
  if (IndexDir.empty())
    return;
  for (auto &[Root, Index] : Indexes) {
    if (!Index.Dirty)
      continue;
    std::vector<IndexRow> Rows;
    std::map<std::string, std::vector<IndexPosting>> Names;
    if (Index.Saved) {
      std::vector<uint32_t> NewRow(Index.Saved->Rows.size(), UINT32_MAX);
      for (uint32_t R = 0; R < NewRow.size(); ++R)
        if (Index.SavedState[R] == SavedRow::Current) {
          NewRow[R] = static_cast<uint32_t>(Rows.size());
          Rows.push_back(Index.Saved->Rows[R]);
        }
      for (size_t I = 0; I < Index.Saved->nameCount(); ++I) {
        std::vector<IndexPosting> Kept;
        for (const IndexPosting &P : Index.Saved->postingsAt(I))
          if (NewRow[P.Row] != UINT32_MAX)
            Kept.push_back({NewRow[P.Row], P.Marks});
        if (!Kept.empty())
          Names.emplace(std::string(Index.Saved->name(I)), std::move(Kept));
      }
    }
    // A buffer's text (no disk stat) is not what the next run will read.
    for (const auto &[Path, F] : Index.PerFile) {
      if (!F.MtimeNs || !F.Hash || Path.size() <= Root.size() + 1 || Path.compare(0, Root.size(), Root) != 0 ||
          Path[Root.size()] != '/')
        continue;
      uint32_t Row = static_cast<uint32_t>(Rows.size());
      Rows.push_back({Path.substr(Root.size() + 1), F.Size, F.MtimeNs, F.Hash});
      for (const auto &[N, Marks] : F.Names)
        Names[N].push_back({Row, Marks});
    }
    int64_t Now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (saveLaunchIndex(IndexDir, Root, LaunchIndexFile::encode(Root, Now, Rows, Names)))
      Index.Dirty = false;
  }
}

bool Project::names(const std::shared_ptr<const Module> &M, const std::string &Dotted, const std::string &DefPath,
                    const std::string &Name) {
  std::vector<std::string> Parts = splitDots(Dotted);
  if (Parts.back() != Name)
    return false;
  // Through the modules' bare tables: which def a name reaches does not
  // depend on what their imports of triton stand for, and a full discovery
  // of every package on the way would resolve each of their imports (a
  // package's `__init__` that imports the whole library).
  Symbol S = memberIn(M, Parts[0], nullptr, 0, /*Raw=*/true);
  for (size_t I = 1; I < Parts.size() && S.K == Symbol::Kind::Module && S.Mod; ++I)
    S = memberIn(S.Mod, Parts[I], nullptr, 1, /*Raw=*/true);
  return S.K == Symbol::Kind::Function && S.Mod && S.Mod->Ref.Path == DefPath && S.Def->Name == Name;
}

bool Project::launchedElsewhere(const std::string &RawDefPath, const std::string &Name) {
  std::string DefPath = normalPath(RawDefPath);
  for (const std::string &Path : mentions(DefPath, Name, BeforeBracket)) {
    std::shared_ptr<const Module> M = moduleAt(Path);
    if (!M)
      continue;
    for (const auto &[Callee, Range] : M->Info.OtherLaunches)
      if (names(M, Callee, DefPath, Name))
        return true;
  }
  return false;
}

bool Project::calledElsewhere(const std::string &RawDefPath, const std::string &Name) {
  std::string DefPath = normalPath(RawDefPath);
  for (const std::string &Path : mentions(DefPath, Name, BeforeParen)) {
    std::shared_ptr<const Module> M = moduleAt(Path);
    if (!M)
      continue;
    bool Found = false;
    for (const auto &[JName, J] : M->Info.Jit) {
      if (!J.Def || Found)
        continue;
      ast::Walker W;
      W.OnExpr = [&](const ast::Expr *E) {
        if (Found || !(isa<ast::NameExpr>(E) || isa<ast::AttributeExpr>(E)))
          return;
        std::string D = ast::dottedName(E);
        Found = !D.empty() && names(M, D, DefPath, Name);
      };
      W.walk(J.Def->Body);
    }
    if (Found)
      return true;
  }
  return false;
}

} // namespace tessel::project
