#include "kbo/kfo/linear_kernel.hpp"

#include <cmath>
#include <sstream>

namespace kbo::kfo {

LinearKernel::LinearKernel(double variance) : variance_(variance) {
  if (!(variance > 0.0)) throw InputError("LinearKernel: variance must be > 0");
}

std::string LinearKernel::describe() const {
  std::ostringstream os;
  os << "linear(v=" << variance_ << ")";
  return os.str();
}

void LinearKernel::set_log_params(const Vec& p) {
  if (p.size() != 1) throw InputError("LinearKernel: expects 1 log parameter");
  variance_ = std::exp(p(0));
}

}  // namespace kbo::kfo
