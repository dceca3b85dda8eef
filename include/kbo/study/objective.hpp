#pragma once
// Objectives a study can evaluate: an external command (any language) or a built-in problem.
#include <string>

#include "kbo/study/study.hpp"

namespace kbo {

/// Runs `sh -c COMMAND` once per trial, in its own process group:
/// - stdin receives one line of JSON {"trial": id, "x": [...]} and is then closed; on a space with named
///   parameters (`space`, a params space) it also holds "params": {"name": typed value, ...};
/// - "{x}" in COMMAND is replaced by the coordinates separated by spaces, "{trial}" by the id;
/// - the last non-empty line the process printed on stdout before it exited is the value: a number, or a
///   JSON object {"value": number, ...} (several objectives: {"values": [numbers], ...}); stderr passes through to ours, and its last line is kept for the
///   failure reason ("exit status 1: ValueError: …");
/// - when the process exits, what remains of its process group (background children) is killed.
/// A non-zero exit status, death by a signal, running longer than `timeout_seconds` (> 0; the whole
/// process group is killed), or a last line that is not a finite number gives a failed Evaluation with
/// the reason; exit status 126/127 (the shell could not find or execute the command) gives
/// Evaluation::not_runnable; a stop request (interrupt.hpp) while it runs terminates the group (SIGTERM,
/// SIGKILL after 2 s) and gives Evaluation::stopped. Nothing is thrown for a misbehaving command.
class ExternalObjective {
 public:
  explicit ExternalObjective(std::string command, double timeout_seconds = 0.0,
                             std::shared_ptr<const Space> space = nullptr);
  Evaluation operator()(const Trial& trial) const;
  const std::string& command() const { return command_; }

 private:
  std::string command_;
  double timeout_;
  std::shared_ptr<const Space> space_;  // names the parameters in the payload (nullptr: x only)
};

/// Parses one value line: surrounding whitespace ignored; the whole rest must be a number or a JSON object
/// with a numeric "value" (other keys ignored). Returns a failed Evaluation naming the text when it is
/// empty, neither, NaN or infinite.
Evaluation parse_value_line(const std::string& line);

}  // namespace kbo
