#pragma once
// Objectives a study can evaluate: an external command (any language) or a built-in problem.
#include <string>

#include "kbo/study/study.hpp"

namespace kbo {

/// Runs `sh -c COMMAND` once per trial, in its own process group:
/// - stdin receives one line of JSON {"trial": id, "x": [...]} and is then closed;
/// - "{x}" in COMMAND is replaced by the coordinates separated by spaces, "{trial}" by the id;
/// - the last non-empty line of stdout is the value (stderr passes through to ours).
/// A non-zero exit status, death by a signal, running longer than `timeout_seconds` (> 0; the whole
/// process group is killed), or a last line that is not a finite number gives a failed Evaluation with
/// the reason; nothing is thrown for a misbehaving command.
class ExternalObjective {
 public:
  explicit ExternalObjective(std::string command, double timeout_seconds = 0.0);
  Evaluation operator()(const Trial& trial) const;
  const std::string& command() const { return command_; }

 private:
  std::string command_;
  double timeout_;
};

/// Parses one value line: surrounding whitespace ignored; the whole rest must be a number. Returns a
/// failed Evaluation naming the text when it is empty, not a number, NaN or infinite.
Evaluation parse_value_line(const std::string& line);

}  // namespace kbo
