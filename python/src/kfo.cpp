// kbo.kfo: Kernel Functional Optimisation from Python — learn a kernel on (X, y) with the library's
// learn_gp_kernel / learn_svm_kernel (the code behind `kbo kfo`), plus the CLI's split and scaling helpers.
#include <pybind11/stl.h>

#include "kbo/kfo/kfo.hpp"
#include "kernels.hpp"

namespace kbo::python {

namespace {

struct Learned {
  std::shared_ptr<PyKernel> kernel;
  std::string task;
  double lambda_h, lengthscale, train_score, seconds_optimising, seconds_evaluating;
  Vec z, input_scales;
  std::vector<double> search_values;
};

}  // namespace

void init_kfo(py::module_& parent) {
  py::module_ m = parent.def_submodule("kfo", "Kernel Functional Optimisation (Kumar A V et al., NeurIPS 2021)");

  py::class_<Learned>(m, "LearnedKernel", "Result of kbo.kfo.learn: the learned kernel and how it was found.")
      .def_readonly("kernel", &Learned::kernel, "kbo.kernels.Functional")
      .def_readonly("task", &Learned::task)
      .def_readonly("lambda_h", &Learned::lambda_h, "hyperkernel harmonic weight of the best Theta")
      .def_readonly("lengthscale", &Learned::lengthscale, "hyperkernel lengthscale of the best Theta")
      .def_readonly("train_score", &Learned::train_score,
                    "training objective of the kernel: CV accuracy (classification) or GP log marginal likelihood")
      .def_property_readonly("z", [](const Learned& l) { return from_vec(l.z); }, "PCA coordinates of the functional")
      .def_property_readonly("input_scales", [](const Learned& l) { return from_vec(l.input_scales); },
                             "per-dimension scales s of the functional's distance ||s * (x - x')|| (empty: isotropic)")
      .def_readonly("search_values", &Learned::search_values, "objective of every functional evaluated (best Theta)")
      .def_readonly("seconds_optimising", &Learned::seconds_optimising)
      .def_readonly("seconds_evaluating", &Learned::seconds_evaluating)
      .def("__repr__", [](const Learned& l) { return "<kbo.kfo.LearnedKernel " + l.kernel->kernel->describe() + ">"; });

  m.def(
      "learn",
      [](const py::object& Xo, const py::object& yo, const std::string& task_name, std::uint64_t seed, int subspaces,
         int iterations, int basis, int init, double lambda_lo, bool reset_gp_per_subspace, int base_points,
         int components, const std::string& convention, bool tune, double lambda_h, double hyper_l, int outer_init,
         int outer_iterations, int cv_folds, int max_search_points, const std::string& input_scaling) {
        const Mat X = to_mat(Xo, "X");
        const Vec y = to_vec(yo, "y", X.rows());
        if (X.size() > 0 && (X.minCoeff() < -1e-9 || X.maxCoeff() > 1.0 + 1e-9))
          throw py::value_error("X must be scaled to [0, 1]^D (kbo.kfo.minmax_scale on the training part, as `kbo kfo` "
                                "does); the hyperkernel grid spans distances [0, sqrt(D)]");
        const kfo::Task task = kfo::parse_task(task_name);
        kfo::ExperimentOptions o;
        o.search.subspaces = subspaces;
        o.search.iterations = iterations;
        o.search.basis_per_subspace = basis;
        o.search.n_init_per_subspace = init;
        o.search.lambda_lo = lambda_lo;
        o.search.reset_gp_per_subspace = reset_gp_per_subspace;
        o.basis.base_points = base_points;
        o.basis.components = components;
        if (convention == "paper") o.basis.convention = kfo::GridConvention::Paper;
        else if (convention == "code") o.basis.convention = kfo::GridConvention::CodeCompat;
        else throw InputError("convention must be 'paper' or 'code' (got '" + convention + "')");
        o.basis.hyper = {lambda_h, hyper_l};
        kfo::validate(o.basis.hyper);
        o.tune_hyperkernel = tune;
        o.outer.n_init = outer_init;
        o.outer.iterations = outer_iterations;
        o.cv_folds = cv_folds;
        o.max_search_points = max_search_points;
        o.input_scaling = kfo::parse_input_scaling(input_scaling);
        o.seed = seed;
        if (subspaces < 1 || iterations < 0 || basis < 1 || init < 1)
          throw InputError("subspaces, basis and init must be >= 1 and iterations >= 0");
        if (cv_folds < 2) throw InputError("cv_folds must be >= 2");
        if (components < 1) throw InputError("components must be >= 1");
        if (max_search_points < 10) throw InputError("max_search_points must be >= 10");

        Learned out;
        out.task = task_name;
        std::shared_ptr<Kernel> k;
        {
          py::gil_scoped_release nogil;
          kfo::LearnedKernel lk;
          if (task == kfo::Task::Classification) {
            lk = kfo::learn_svm_kernel(X, kfo::to_labels(y), o);
            // As run_classification: the raw functional (the SVM fixes the spectrum of its Gram matrices).
            auto f = std::make_shared<FunctionalKernel>(*lk.basis, lk.z, FunctionalPsd::None, false);
            f->set_input_scales(lk.input_scales);
            k = f;
          } else {
            lk = kfo::learn_gp_kernel(X, y, o, nullptr, 1e-2);
            k = std::shared_ptr<Kernel>(kfo::make_functional_kernel(lk, o, nullptr));
          }
          out.lambda_h = lk.theta.lambda_h;
          out.lengthscale = lk.theta.lengthscale;
          out.train_score = lk.train_score;
          out.z = lk.z;
          out.input_scales = lk.input_scales;
          out.search_values = lk.search.y;
          out.seconds_optimising = lk.seconds_optimising;
          out.seconds_evaluating = lk.seconds_evaluating;
        }
        out.kernel = wrap_kernel(std::move(k), -1);
        return out;
      },
      py::arg("X"), py::arg("y"), py::arg("task") = "regression", py::kw_only(), py::arg("seed") = 0,
      py::arg("subspaces") = 5, py::arg("iterations") = 8, py::arg("basis") = 1, py::arg("init") = 4,
      py::arg("lambda_lo") = 0.0, py::arg("reset_gp_per_subspace") = false, py::arg("base_points") = 0,
      py::arg("components") = 10, py::arg("convention") = "paper", py::arg("tune") = true, py::arg("lambda_h") = 0.5,
      py::arg("hyper_l") = 0.5, py::arg("outer_init") = 3, py::arg("outer_iterations") = 2, py::arg("cv_folds") = 5,
      py::arg("max_search_points") = 300, py::arg("input_scaling") = "ard",
      R"doc(Learns a kernel for (X, y) with KFO (Algorithm 1 inside an outer BO over Theta = (lambda_h, l)), as
`kbo kfo` does on its training part. X: (n, D) scaled to [0, 1]^D; y: targets (regression) or integer class
labels (classification). task="regression" maximises the GP log marginal likelihood (the kernel is alpha-clipped,
PSD); task="classification" the k-fold CV accuracy of an SVM (raw functional; spectrum-fix its Gram matrices).
input_scaling="ard" (default) learns the functional on ARD-scaled inputs (scales from an ARD Matern-5/2 GP fit,
LearnedKernel.input_scales); "none" is the paper's isotropic functional.
Keyword names and defaults are the `kbo kfo` flags (tune=False: use lambda_h, hyper_l).)doc");

  m.def(
      "random_split",
      [](int n, double test_fraction, std::uint64_t seed) {
        const kfo::Split s = kfo::random_split(n, test_fraction, seed);
        return py::make_tuple(s.train, s.test);
      },
      py::arg("n"), py::arg("test_fraction") = 0.2, py::arg("seed") = 0,
      "The seeded train/test index split `kbo kfo --test-fraction F --seed S` uses: (train, test).");
  m.def(
      "minmax_scale",
      [](const py::object& fit, const py::object& other) {
        Mat a = to_mat(fit, "fit");
        Mat b = to_mat(other, "other", a.cols());
        kfo::minmax_scale(a, b);
        return py::make_tuple(from_mat(a), from_mat(b));
      },
      py::arg("fit"), py::arg("other"),
      "Scales each column to [0, 1] with the range of `fit` (constant columns to 0) and applies it to both.");
}

}  // namespace kbo::python
