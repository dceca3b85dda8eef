// A C++ program that links the strategy layer's library alone (no kbo_modules, so nothing can register the
// built-ins) and looks up the "box" space kind: the error must name the fix, not list an empty "allowed: ".
#include <cstdio>
#include <string>

#include <kbo/core/error.hpp>
#include <kbo/strategy/registry.hpp>

int main() {
  try {
    kbo::space_kinds().get("box");
  } catch (const kbo::InputError& e) {
    const std::string message = e.what();
    std::printf("%s\n", message.c_str());
    const bool names_fix = message.find("kbo::register_builtin_modules()") != std::string::npos &&
                           message.find("kbo::kbo") != std::string::npos;
    return names_fix && message.find("allowed: )") == std::string::npos ? 0 : 1;
  }
  std::printf("the lookup found 'box' although no module registered it\n");
  return 1;
}
