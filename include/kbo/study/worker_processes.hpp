#pragma once
// Local worker processes: `kbo optimize --workers N` and `kbo bench workers` start N `kbo worker`
// processes (separate processes, not threads: each has its own storage connection and address space,
// so a crash or kill -9 of one loses only its running trial — the durability a user gets on many
// machines, tested on one).
#include <sys/types.h>

#include <string>
#include <vector>

namespace kbo {

/// Starts the running executable (/proc/self/exe) with `args` (argv[1..]); stdin from /dev/null,
/// stdout to our stderr (so the caller's stdout carries only its own output), stderr inherited. Throws std::runtime_error if it cannot start.
pid_t spawn_self(const std::vector<std::string>& args);

/// Waits for `pid`; returns its exit code, or 128 + signal number if it was killed.
int wait_process(pid_t pid);

/// Waits for whichever child exits first; returns its pid (-1 if none is left) and sets `code` as
/// wait_process does. Reaping children as soon as they die matters: a zombie still "exists" for
/// kill(pid, 0), so other workers could not recognise its trial as lost until --stale-after.
pid_t wait_any(int& code);

/// As wait_any without blocking: the pid of a child that has exited (its code in `code`), 0 if none has
/// exited yet, -1 if there are no children.
pid_t try_wait_any(int& code);

/// Quotes `s` for sh -c ('…' with embedded quotes escaped).
std::string shell_quote(const std::string& s);

/// The shell command a worker runs for `-- CMD ARGS…`: one word is used verbatim as a shell command
/// (like --objective 'cmd | filter'); several words are quoted one by one and joined.
std::string command_from_words(const std::vector<std::string>& words);

}  // namespace kbo
