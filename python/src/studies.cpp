// kbo._kbo._Study: studies built from the library's option table (kbo/study/options.hpp) with typed values
// (never argv text) and the strategy registry, so a Python study and `kbo optimize/ask/tell/show` with the
// same options are the same study and make the same suggestions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include <pybind11/stl.h>

#include "common.hpp"
#include "kbo/analysis/study_view.hpp"
#include "kbo/core/params.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/options.hpp"
#include "kbo/study/study.hpp"
#include "kbo/study/config_file.hpp"

namespace kbo::python {

namespace {

struct PyStudy {
  Study study;
  StudyOptions options;
  std::unique_ptr<Strategy> strategy;
  std::mutex mutex;  // one suggestion at a time per object (the GIL is released while it runs)

  std::vector<std::string> param_order;  // a params space's names in the order of the space (the user's)

  PyStudy(Study s, StudyOptions o) : study(std::move(s)), options(std::move(o)) {
    if (const auto* ps = dynamic_cast<const ParamsSpace*>(study.space().get()))
      for (const ParamDef& p : ps->params()) param_order.push_back(p.name);
  }

  /// {name: typed value} of the point x in the order of the space (None for a space without names).
  py::object params_dict(const Vec& x) const {
    if (param_order.empty()) return py::none();
    const nlohmann::json named = study.space()->named(x);
    py::dict out;
    for (const std::string& name : param_order) out[py::str(name)] = json_to_py(named[name]);
    return out;
  }

  /// The trial as a Python kbo.Trial with its `params` (Optuna's Trial.params: the user's values, in order).
  py::object trial(const Trial& t) const {
    py::object o = py::cast(t);
    o.attr("params") = t.x.size() == study.space()->dim() ? params_dict(t.x) : py::object(py::none());
    return o;
  }
  Strategy& get_strategy() {
    if (!strategy) strategy = make_strategy(study.strategy_config(), study.space());
    return *strategy;
  }
};

/// Typed keywords → the option table, as `kbo ask` applies flags: a config file first ("config"), then every
/// other keyword. A keyword that is not an option is a TypeError, as Python reports unknown keywords.
StudyOptions apply_keywords(StudyOptions o, const py::dict& kwargs) {
  o.given.clear();
  if (kwargs.contains("config") && !kwargs["config"].is_none())
    apply_config_file(o, py::str(kwargs["config"]).cast<std::string>());
  for (const auto& [k, v] : kwargs) {
    const std::string key = py::str(k);
    if (key == "config" || v.is_none()) continue;
    const OptionSpec* spec = find_study_option(key);
    if (!spec || !spec->in_config || key.find('-') != std::string::npos) {
      std::vector<std::string> keywords{"config"};
      for (const auto& s : study_option_table())
        if (s.in_config) {
          std::string name = s.name;
          std::replace(name.begin(), name.end(), '-', '_');
          keywords.push_back(name);
        }
      throw py::type_error("unexpected keyword '" + key + "'" + did_you_mean(key, keywords));
    }
    set_study_option(o, *spec, json_from_py(v));
  }
  return o;
}

/// Creates the study (when the options give a space) or opens it with its stored configuration, which the
/// given options override — the logic of `kbo ask`.
std::unique_ptr<PyStudy> open_study(const py::dict& kwargs) {
  StudyOptions o = apply_keywords(StudyOptions(), kwargs);
  StudyRecord wanted;
  std::shared_ptr<Storage> storage;
  {
    py::gil_scoped_release nogil;
    storage = open_storage(o.storage);
  }
  if (o.has_space_source()) {
    wanted = make_study_record(o, resolve_space(o, nullptr));
  } else {
    const Study existing = Study::open(storage, o.study);
    StudyOptions base;
    base.strategy = existing.strategy_config();
    base.minimize = existing.minimize();
    base.directions = existing.record().directions;
    o = apply_keywords(base, kwargs);
    wanted = make_study_record(o, existing.record().space);
  }
  std::vector<std::string> changed;
  auto study = std::make_unique<PyStudy>(Study::create_or_open(storage, wanted, &changed), o);
  if (!changed.empty()) {
    std::string list;
    for (const auto& c : changed) list += (list.empty() ? "" : "; ") + c;
    py::module_::import("warnings").attr("warn")("study '" + o.study + "' continues with changed settings: " + list +
                                                 " (its trials so far are kept)");
  }
  return study;
}

/// Thrown through Study::optimize (it is not a std::exception, so the loop does not turn it into a failed
/// trial) to stop after Ctrl-C or when a callback raises.
struct StopRun {};

std::string exception_line(const py::error_already_set& e) {
  py::list parts = py::module_::import("traceback").attr("format_exception_only")(e.type(), e.value());
  std::string text;
  for (const auto& p : parts) text += py::str(p).cast<std::string>();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  // One line, as every failure reason in a study.
  for (auto& c : text)
    if (c == '\n') c = ' ';
  return text;
}

py::object trial_or_none(const PyStudy& s, const std::optional<Trial>& t) {
  return t ? s.trial(*t) : py::object(py::none());
}

/// Study::optimize with a Python objective. Returns true when stopped by KeyboardInterrupt (completed trials
/// are all committed; the trial being evaluated is marked failed "interrupted"). Other BaseExceptions from the
/// objective (SystemExit) and any exception from the callback stop the run too and are re-raised.
bool optimize(PyStudy& s, const py::object& f, int n_total, const py::object& callback) {
  bool interrupted = false;
  std::optional<py::error_already_set> raise_after;

  auto stop_with = [&](py::error_already_set& e) {
    if (e.matches(PyExc_KeyboardInterrupt)) interrupted = true;
    else raise_after = e;
    throw StopRun{};
  };

  TrialObjective objective = [&](const Trial& t) -> Evaluation {
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      // A params space hands f a dict {name: typed value}; a box or set space the flat array.
      const nlohmann::json named = s.study.space()->named(t.x);
      py::object r = named.is_null() ? f(from_vec(t.x)) : f(json_to_py(named));
      // Outcome constraints: (value, [c1, ...]) or {"value": v, "constraints": [c1, ...]}.
      std::vector<double> constraints;
      py::object cs = py::none();
      const bool several = s.study.n_objectives() > 1;
      const auto is_sequence = [](const py::handle& h) {
        return py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h) ||
               (py::hasattr(h, "__len__") && py::hasattr(h, "__getitem__") && !py::isinstance<py::str>(h) &&
                !py::isinstance<py::dict>(h));
      };
      if (several) {
        // Several objectives: a sequence of values, (values, [c1, ...]) or {"values": [...], "constraints": [...]}.
        if (py::isinstance<py::tuple>(r) && py::len(r) == 2 && is_sequence(r.cast<py::tuple>()[0])) {
          cs = r.cast<py::tuple>()[1];
          r = r.cast<py::tuple>()[0];
        } else if (py::isinstance<py::dict>(r)) {
          py::dict d = r.cast<py::dict>();
          if (!d.contains("values")) return Evaluation::failed("objective returned a dict without \"values\"");
          if (d.contains("constraints")) cs = d["constraints"];
          r = d["values"];
        }
        if (!is_sequence(r))
          return Evaluation::failed("objective returned " + std::string(py::str(py::type::of(r).attr("__name__"))) +
                                    " (expected a sequence of " + std::to_string(s.study.n_objectives()) + " numbers)");
        std::vector<double> values;
        for (const auto& item : r) {
          const double v = PyFloat_AsDouble(item.ptr());
          if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return Evaluation::failed("objective values must be numbers");
          }
          values.push_back(v);
        }
        if (!cs.is_none())
          for (const auto& c : cs) constraints.push_back(PyFloat_AsDouble(c.ptr()));
        if (PyErr_Occurred()) PyErr_Clear();
        for (double c : constraints)
          if (!std::isfinite(c)) return Evaluation::failed("constraints must be finite numbers");
        if (values.empty()) return Evaluation::failed("objective returned no values");
        for (double v : values)
          if (!std::isfinite(v)) return Evaluation::failed("non-finite objective value");
        // A wrong number of values stops the run with an InputError (Study::work), nothing stored.
        Evaluation ev = Evaluation::ok(values);
        ev.constraints = std::move(constraints);
        return ev;
      }
      // A noisy objective: (value, sem) (a number second: the standard error) or {"value": v, "sem": s}.
      py::object sem = py::none();
      if (py::isinstance<py::tuple>(r) && py::len(r) == 2) {
        (is_sequence(r.cast<py::tuple>()[1]) ? cs : sem) = r.cast<py::tuple>()[1];
        r = r.cast<py::tuple>()[0];
      } else if (py::isinstance<py::dict>(r)) {
        py::dict d = r.cast<py::dict>();
        if (!d.contains("value")) return Evaluation::failed("objective returned a dict without \"value\"");
        if (d.contains("constraints")) cs = d["constraints"];
        if (d.contains("sem")) sem = d["sem"];
        r = d["value"];
      }
      if (!cs.is_none()) {
        for (const auto& c : cs) {
          const double cv = PyFloat_AsDouble(c.ptr());
          if ((cv == -1.0 && PyErr_Occurred()) || !std::isfinite(cv)) {
            PyErr_Clear();
            return Evaluation::failed("constraints must be finite numbers");
          }
          constraints.push_back(cv);
        }
      }
      const double v = PyFloat_AsDouble(r.ptr());
      if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return Evaluation::failed("objective returned " + std::string(py::str(py::type::of(r).attr("__name__"))) +
                                  " (expected a number)");
      }
      Evaluation ev = Evaluation::ok(v);  // NaN/inf: Study::optimize marks the trial failed
      ev.constraints = std::move(constraints);
      if (!sem.is_none()) {
        // Not a number, negative or nan/inf: Study::work stops the run with an InputError (nothing stored).
        double sv = PyFloat_AsDouble(sem.ptr());
        if (PyErr_Occurred()) {
          PyErr_Clear();
          sv = std::numeric_limits<double>::quiet_NaN();
        }
        ev.sem = sv;
      }
      return ev;
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_Exception)) return Evaluation::failed(exception_line(e));
      // KeyboardInterrupt / SystemExit: this trial will not be completed.
      const std::string reason = "interrupted (" + exception_line(e) + ")";
      {
        py::gil_scoped_release nogil;
        s.study.fail(t.id, reason, /*force=*/true);  // this run owns the trial
      }
      stop_with(e);
    }
    return Evaluation::failed("unreachable");
  };

  ProgressFn progress = [&](const Trial& t, int finished, int total, const std::optional<Trial>& best) {
    py::gil_scoped_acquire gil;
    try {
      if (!callback.is_none()) callback(s.trial(t), finished, total, trial_or_none(s, best));
      // Ctrl-C while C++ ran without the GIL is only seen here: stop between trials.
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    } catch (py::error_already_set& e) {
      stop_with(e);
    }
  };

  {
    // Lock without the GIL: the holder re-acquires the GIL to call f, so waiting for the lock while holding
    // the GIL would deadlock.
    py::gil_scoped_release nogil;
    std::lock_guard<std::mutex> lock(s.mutex);
    Strategy& strategy = s.get_strategy();
    s.study.set_budget(n_total);  // as `kbo optimize`: `kbo worker` on this study then knows when to stop
    try {
      s.study.optimize(strategy, objective, n_total, worker_id("optimize"), progress);
    } catch (const StopRun&) {
    }
  }
  if (raise_after) throw *raise_after;
  return interrupted;
}

}  // namespace

void init_studies(py::module_& m) {
  py::class_<Trial>(m, "Trial", py::dynamic_attr(),
                    "One trial of a study: id, params ({name: value} in the space's order; None for a box or set "
                    "space), x (the encoded point), value, state, reason (failed), worker, times.")
      .def_readonly("id", &Trial::id)
      .def_property_readonly("x", [](const Trial& t) { return from_vec(t.x); })
      .def_readonly("value", &Trial::value)
      .def_property_readonly("state", [](const Trial& t) { return to_string(t.state); })
      .def_readonly("reason", &Trial::reason)
      .def_readonly("worker", &Trial::worker)
      .def_readonly("created_at", &Trial::created_at)
      .def_readonly("finished_at", &Trial::finished_at)
      .def_readonly("constraints", &Trial::constraints)
      .def_readonly("values", &Trial::values)
      .def_readonly("sem", &Trial::sem)
      .def_property_readonly("feasible", [](const Trial& t) { return is_feasible(t); })
      .def("__repr__", [](const Trial& t) {
        std::string s = "Trial(id=" + std::to_string(t.id) + ", state=" + to_string(t.state);
        if (t.value) s += ", value=" + py::repr(py::float_(*t.value)).cast<std::string>();
        if (t.state == TrialState::Failed) s += ", reason=" + py::repr(py::str(t.reason)).cast<std::string>();
        return s + ", x=" + py::repr(from_vec(t.x)).cast<std::string>() + ")";
      });

  py::class_<PyStudy>(m, "_Study")
      .def(py::init(&open_study), py::arg("options"))
      .def_property_readonly("name", [](const PyStudy& s) { return s.study.name(); })
      .def_property_readonly("storage", [](const PyStudy& s) { return s.study.storage().url(); })
      .def_property_readonly("minimize", [](const PyStudy& s) { return s.study.minimize(); })
      .def_property_readonly("directions", [](const PyStudy& s) { return s.study.directions(); })
      .def_property_readonly("dim", [](const PyStudy& s) { return s.study.space()->dim(); })
      .def_property_readonly("space", [](const PyStudy& s) { return json_to_py(s.study.record().space); })
      .def_property_readonly("config", [](const PyStudy& s) { return json_to_py(s.study.record().config); })
      .def_property_readonly("n_init", [](const PyStudy& s) { return s.study.strategy_config().n_init; })
      .def_property_readonly("iters", [](const PyStudy& s) { return s.options.iters; })
      .def_property_readonly("bounds", [](const PyStudy& s) {
        const Box& b = s.study.space()->bounds();
        Mat out(b.dim(), 2);
        out.col(0) = b.lower;
        out.col(1) = b.upper;
        return from_mat(out);
      })
      .def("ask",
           [](PyStudy& s) {
             Trial t;
             {
               py::gil_scoped_release nogil;
               std::lock_guard<std::mutex> lock(s.mutex);
               Strategy& strategy = s.get_strategy();
               t = s.study.ask(strategy, worker_id("ask"));
             }
             return s.trial(t);
           })
      .def("tell",
           [](PyStudy& s, int id, double value, const std::vector<double>& constraints, std::optional<double> sem) {
             Trial t;
             {
               py::gil_scoped_release nogil;
               t = s.study.tell(id, value, false, constraints, sem);
             }
             return s.trial(t);
           },
           py::arg("id"), py::arg("value"), py::arg("constraints") = std::vector<double>(),
           py::arg("sem") = py::none())
      .def("tell_values",
           [](PyStudy& s, int id, const std::vector<double>& values, const std::vector<double>& constraints) {
             py::gil_scoped_release nogil;
             return s.study.tell_values(id, values, false, constraints);
           },
           py::arg("id"), py::arg("values"), py::arg("constraints") = std::vector<double>())
      .def("add_evaluated_values",
           [](PyStudy& s, const py::object& point, const std::vector<double>& values,
              const std::vector<double>& constraints) {
             const Vec x = s.study.point_from_json(json_from_py(point));
             if (values.empty()) throw InputError("values: give one number per objective");
             py::gil_scoped_release nogil;
             return s.study.add_evaluated(std::vector<EvaluatedPoint>{{x, values.front(), constraints, values, std::nullopt}}).front();
           })
      .def("enqueue",
           [](PyStudy& s, const py::object& point) {
             const Vec x = s.study.point_from_json(json_from_py(point));
             Trial t;
             {
               py::gil_scoped_release nogil;
               t = s.study.enqueue(x);
             }
             return s.trial(t);
           })
      .def("add_evaluated",
           [](PyStudy& s, const py::object& point, double value, const std::vector<double>& constraints,
              std::optional<double> sem) {
             const Vec x = s.study.point_from_json(json_from_py(point));
             Trial t;
             {
               py::gil_scoped_release nogil;
               t = s.study.add_evaluated(x, value, constraints, sem);
             }
             return s.trial(t);
           },
           py::arg("point"), py::arg("value"), py::arg("constraints") = std::vector<double>(),
           py::arg("sem") = py::none())
      .def("fail",
           [](PyStudy& s, int id, const std::string& reason) {
             Trial t;
             {
               py::gil_scoped_release nogil;
               t = s.study.fail(id, reason);
             }
             return s.trial(t);
           })
      .def("trials",
           [](const PyStudy& s) {
             std::vector<Trial> trials;
             {
               py::gil_scoped_release nogil;
               trials = s.study.trials();
             }
             py::list out;
             for (const Trial& t : trials) out.append(s.trial(t));
             return out;
           })
      .def("best",
           [](const PyStudy& s) {
             std::optional<Trial> b;
             {
               py::gil_scoped_release nogil;
               b = s.study.best();
             }
             return trial_or_none(s, b);
           })
      .def("to_json",
           [](const PyStudy& s) {
             nlohmann::json out;
             {
               // The recommendation under the study's fitted model (its stored state; one conditioning, no
               // refit), by a strategy of its own: a callback may call this while optimize holds s.strategy.
               py::gil_scoped_release nogil;
               const std::vector<Trial> trials = s.study.trials();
               std::vector<std::size_t> all(trials.size());
               for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
               out = s.study.to_json(trials, all);
               std::unique_ptr<Strategy> model;
               if (s.study.n_objectives() == 1) model = make_strategy(s.study.strategy_config(), s.study.space());
               s.study.add_recommendation(out, trials, model.get());
             }
             return json_to_py(out);
           })
      .def("view",
           [](PyStudy& s) {
             nlohmann::json v;
             {
               py::gil_scoped_release release;  // the GP fit of the analysis may take a second
               std::lock_guard<std::mutex> lock(s.mutex);
               v = study_view(s.study);
             }
             return json_to_py(v);
           })
      .def_property_readonly("named", [](const PyStudy& s) { return !s.study.space()->named(s.study.space()->bounds().lower).is_null(); })
      .def("params_of", [](const PyStudy& s, const py::object& x) {
        return s.params_dict(to_vec(x, "x", s.study.space()->dim()));
      })
      .def_property_readonly("param_names", [](const PyStudy& s) { return s.param_order; })
      .def("point_of", [](const PyStudy& s, const py::object& values) { return from_vec(s.study.space()->from_named(json_from_py(values))); })
      .def("strategy_info",
           [](PyStudy& s) { return json_to_py(s.strategy ? s.strategy->last_info() : nlohmann::json::object()); })
      .def("strategy_name", [](PyStudy& s) { return s.get_strategy().name(); })
      .def("optimize", &optimize, py::arg("f"), py::arg("n_total"), py::arg("callback") = py::none());
}

}  // namespace kbo::python
