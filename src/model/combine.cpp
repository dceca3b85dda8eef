#include "kbo/model/kernels/combine.hpp"

#include <cmath>
#include <sstream>

namespace kbo {

ScaleKernel::ScaleKernel(KernelPtr base, double scale) : base_(std::move(base)), log_scale_(std::log(scale)) {
  if (!(scale > 0)) throw InputError("scale kernel: scale must be > 0");
}

std::string ScaleKernel::describe() const {
  std::ostringstream o;
  o << std::exp(log_scale_) << " * " << base_->describe();
  return o.str();
}
Vec ScaleKernel::log_params() const {
  Vec b = base_->log_params();
  Vec p(b.size() + 1);
  p << log_scale_, b;
  return p;
}
void ScaleKernel::set_log_params(const Vec& p) {
  if (p.size() != base_->num_params() + 1) throw InputError("scale kernel: wrong number of hyperparameters");
  log_scale_ = p[0];
  base_->set_log_params(p.tail(p.size() - 1));
}
std::vector<std::string> ScaleKernel::param_names() const {
  std::vector<std::string> names{"scale"};
  for (auto& n : base_->param_names()) names.push_back("base." + n);
  return names;
}
std::vector<ParamSpec> ScaleKernel::param_specs() const {
  std::vector<ParamSpec> specs{ParamSpec::variance()};  // the output scale s²
  for (auto& s : base_->param_specs()) specs.push_back(s);
  return specs;
}
Mat ScaleKernel::cross(const Mat& X, const Mat& Y) const { return std::exp(log_scale_) * base_->cross(X, Y); }
Vec ScaleKernel::diag(const Mat& X) const { return std::exp(log_scale_) * base_->diag(X); }
std::vector<Mat> ScaleKernel::gram_gradients(const Mat& X) const {
  const double s = std::exp(log_scale_);
  std::vector<Mat> g{s * base_->gram(X)};
  for (auto& m : base_->gram_gradients(X)) g.push_back(s * m);
  return g;
}
Mat ScaleKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  return std::exp(log_scale_) * base_->cross_grad_x(x, X);
}
Vec ScaleKernel::diag_grad_x(const Vec& x) const { return std::exp(log_scale_) * base_->diag_grad_x(x); }

BinaryKernel::BinaryKernel(Op op, KernelPtr a, KernelPtr b) : op_(op), a_(std::move(a)), b_(std::move(b)) {}

std::string BinaryKernel::describe() const {
  return "(" + a_->describe() + (op_ == Op::Sum ? " + " : " * ") + b_->describe() + ")";
}
Vec BinaryKernel::log_params() const {
  Vec pa = a_->log_params(), pb = b_->log_params();
  Vec p(pa.size() + pb.size());
  p << pa, pb;
  return p;
}
void BinaryKernel::set_log_params(const Vec& p) {
  const int na = a_->num_params();
  if (p.size() != na + b_->num_params()) throw InputError("composite kernel: wrong number of hyperparameters");
  a_->set_log_params(p.head(na));
  b_->set_log_params(p.tail(p.size() - na));
}
std::vector<std::string> BinaryKernel::param_names() const {
  std::vector<std::string> names;
  for (auto& n : a_->param_names()) names.push_back("a." + n);
  for (auto& n : b_->param_names()) names.push_back("b." + n);
  return names;
}
std::vector<ParamSpec> BinaryKernel::param_specs() const {
  std::vector<ParamSpec> specs = a_->param_specs();
  for (auto& s : b_->param_specs()) specs.push_back(s);
  return specs;
}
Mat BinaryKernel::cross(const Mat& X, const Mat& Y) const {
  if (op_ == Op::Sum) return a_->cross(X, Y) + b_->cross(X, Y);
  return (a_->cross(X, Y).array() * b_->cross(X, Y).array()).matrix();
}
Vec BinaryKernel::diag(const Mat& X) const {
  if (op_ == Op::Sum) return a_->diag(X) + b_->diag(X);
  return (a_->diag(X).array() * b_->diag(X).array()).matrix();
}
std::vector<Mat> BinaryKernel::gram_gradients(const Mat& X) const {
  std::vector<Mat> ga = a_->gram_gradients(X), gb = b_->gram_gradients(X);
  if (op_ == Op::Product) {
    Mat Ka = a_->gram(X), Kb = b_->gram(X);
    for (auto& m : ga) m = (m.array() * Kb.array()).matrix();
    for (auto& m : gb) m = (m.array() * Ka.array()).matrix();
  }
  ga.insert(ga.end(), gb.begin(), gb.end());
  return ga;
}
Mat BinaryKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  Mat ga = a_->cross_grad_x(x, X), gb = b_->cross_grad_x(x, X);
  if (op_ == Op::Sum) return ga + gb;
  Mat ka = a_->cross(x.transpose(), X), kb = b_->cross(x.transpose(), X);  // 1 x n
  return ga * kb.transpose().asDiagonal() + gb * ka.transpose().asDiagonal();
}
Vec BinaryKernel::diag_grad_x(const Vec& x) const {
  if (op_ == Op::Sum) return a_->diag_grad_x(x) + b_->diag_grad_x(x);
  Mat xm = x.transpose();
  return a_->diag_grad_x(x) * b_->diag(xm)[0] + b_->diag_grad_x(x) * a_->diag(xm)[0];
}

}  // namespace kbo
