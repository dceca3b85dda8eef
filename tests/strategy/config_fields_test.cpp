// StrategyConfig's field list: every field survives the stored JSON form, and the round-trip check itself
// catches a serialiser that forgets a field (a probe struct with a deliberately lossy encoder).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kbo/core/fields.hpp"
#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/config.hpp"

namespace kbo {
namespace {

// A value different from `v` for every field type the lists use.
template <class T>
T changed(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return !v;
  else if constexpr (std::is_same_v<T, int>) return v + 3;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return v + 7;
  else if constexpr (std::is_same_v<T, double>) return v + 1.5;
  else if constexpr (std::is_same_v<T, std::string>) return v + "_changed";
  else if constexpr (std::is_same_v<T, std::optional<double>>) return v ? std::optional<double>() : std::optional<double>(0.25);
  else if constexpr (std::is_same_v<T, nlohmann::json>) return nlohmann::json{{"probe", 1}};
  else if constexpr (NamedEnum<T>) {
    const auto& table = EnumNames<T>::table;
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i].first == v) return table[(i + 1) % table.size()].first;
    return v;
  } else {
    T out = v;  // a struct with its own field list: change every field
    visit_fields(out, [](const char*, auto& field) { field = changed(field); });
    return out;
  }
}

/// Names of the fields of T that do not survive decode(encode(x)) when changed one at a time.
template <class T, class Encode, class Decode>
std::set<std::string> round_trip_failures(Encode encode, Decode decode) {
  std::set<std::string> failures;
  T base{};
  visit_fields(base, [&](const char* name, auto& field) {
    const auto original = field;
    field = changed(field);
    const T back = decode(encode(base));
    if (!(back == base)) failures.insert(name);
    field = original;
  });
  return failures;
}

TEST(ConfigFields, EveryStrategyConfigFieldRoundTripsThroughTheStoredForm) {
  int fields = 0;
  StrategyConfig probe;
  visit_fields(probe, [&](const char*, auto&) { ++fields; });
  EXPECT_GE(fields, 19);
  const auto failures = round_trip_failures<StrategyConfig>([](const StrategyConfig& c) { return to_json(c); },
                                                            [](const nlohmann::json& j) { return strategy_config_from_json(j); });
  EXPECT_TRUE(failures.empty()) << "fields lost: " << *failures.begin();
  // The whole config changed at once too (through the JSON text, as storage keeps it).
  const StrategyConfig all = changed(StrategyConfig{});
  EXPECT_EQ(strategy_config_from_json(nlohmann::json::parse(to_json(all).dump())), all);
}

TEST(ConfigFields, EveryBOModelOptionRoundTrips) {
  const auto failures = round_trip_failures<BOModelOptions>([](const BOModelOptions& o) { return encode_field(o); },
                                                            [](const nlohmann::json& j) { return decode_field<BOModelOptions>("bo", j); });
  EXPECT_TRUE(failures.empty()) << "fields lost: " << *failures.begin();
}

// A probe struct built with the same machinery, with one field added to its list.
#define PROBE_FIELDS(X)                         \
  X(int, kept, 1)                               \
  X(SetKernelType, kind, SetKernelType::Full)   \
  X(double, dummy, 2.0)
struct Probe {
  PROBE_FIELDS(KBO_FIELD_MEMBER)
  bool operator==(const Probe&) const = default;
};
KBO_VISIT_FIELDS(Probe, PROBE_FIELDS)

TEST(ConfigFields, AnAddedFieldIsSerialisedWithoutFurtherCode) {
  const auto failures = round_trip_failures<Probe>([](const Probe& p) { return encode_field(p); },
                                                   [](const nlohmann::json& j) { return decode_field<Probe>("probe", j); });
  EXPECT_TRUE(failures.empty());
  EXPECT_TRUE(encode_field(Probe{}).contains("dummy"));
}

TEST(ConfigFields, ASerialiserThatForgetsAFieldFailsTheCheck) {
  // A hand-written encoder of the kind the field list replaced: it forgets the dummy field.
  auto lossy = [](const Probe& p) {
    return nlohmann::json{{"kept", p.kept}, {"kind", enum_name(p.kind)}};
  };
  const auto failures =
      round_trip_failures<Probe>(lossy, [](const nlohmann::json& j) { return decode_field<Probe>("probe", j); });
  EXPECT_EQ(failures, std::set<std::string>{"dummy"});
}

TEST(ConfigFields, StoredFormErrorsNameTheKey) {
  try {
    strategy_config_from_json({{"beta", "high"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("config.beta must be a finite number"), std::string::npos) << e.what();
  }
  try {
    strategy_config_from_json({{"acq_optimizer", {{"typo", 1}}}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key 'typo'"), std::string::npos) << e.what();
  }
  // Old stored studies (schema v2) lack newer keys: defaults fill them.
  const StrategyConfig old = strategy_config_from_json(
      {{"strategy", "gpucb"}, {"acq_optimizer", {{"type", "cmaes"}, {"raw_samples", 64}}}, {"fixed_noise", nullptr}});
  EXPECT_EQ(old.acq_optimizer.type, AcqOptimizerType::Cmaes);
  EXPECT_EQ(old.acq_optimizer.raw_samples, 64);
  EXPECT_EQ(old.acq_optimizer.num_starts, AcqOptimizerOptions{}.num_starts);
}

}  // namespace
}  // namespace kbo
