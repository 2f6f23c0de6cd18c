// Tests of the CSV readers and the file writer (io.hpp) and of the JSON writer (json.hpp). Expected
// values are read off the small files written here.
#include <calib/io.hpp>
#include <calib/tool/json.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// A file in the temporary directory with the given content, removed at the end of the scope.
class TempFile {
public:
    explicit TempFile(const std::string& content) {
        static int counter = 0;
        path_ = (std::filesystem::temp_directory_path() /
                 ("calib_test_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
                  ".csv"))
                    .string();
        std::ofstream(path_, std::ios::binary) << content;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// The error a reader throws for `content`; fails the test if it throws nothing.
template <class Read>
calib::invalid_argument error_of(const std::string& content, Read read) {
    TempFile file(content);
    try {
        read(file.path());
    } catch (const calib::invalid_argument& e) {
        const std::string message = e.what();
        CHECK(message.rfind(file.path() + ":", 0) == 0);  // the message starts with the file
        CHECK(message.find('\n') == std::string::npos);  // and is one line
        return e;
    }
    FAIL("no calib::invalid_argument for: " << content);
    return calib::invalid_argument("");
}

bool contains(const calib::invalid_argument& e, const std::string& part) {
    return std::string(e.what()).find(part) != std::string::npos;
}

auto categorical = [](const std::string& path) { calib::read_categorical(path); };

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("categorical: values, labels, whitespace, CRLF and trailing blank lines") {
        TempFile file("p0, p1 ,p2,label\r\n 0.2 ,0.3,0.5, 2\r\n0.6,0.4,0,0\r\n\r\n  \n");
        const calib::CategoricalData data = calib::read_categorical(file.path());
        REQUIRE(data.size() == 2);
        REQUIRE(data.num_classes() == 3);
        CHECK(data.probabilities()(0, 0) == 0.2);
        CHECK(data.probabilities()(0, 2) == 0.5);
        CHECK(data.probabilities()(1, 1) == 0.4);
        CHECK(data.labels() == std::vector<int>{2, 0});
    }

    TEST_CASE("categorical: one-based labels and logits") {
        TempFile one("a,b,y\n0.5,0.5,1\n0.1,0.9,2\n");
        calib::ReadOptions options;
        options.one_based_labels = true;
        CHECK(calib::read_categorical(one.path(), options).labels() == std::vector<int>{0, 1});

        // Logits 0 and log 3 give the probabilities 1/4 and 3/4.
        TempFile logits("a,b,y\n0,1.0986122886681098,1\n5,5,0\n");
        options = {};
        options.logits = true;
        const calib::CategoricalData data = calib::read_categorical(logits.path(), options);
        CHECK(data.probabilities()(0, 1) == doctest::Approx(0.75).epsilon(1e-15));
        CHECK(data.probabilities()(1, 0) == doctest::Approx(0.5).epsilon(1e-15));
    }

    TEST_CASE("binary: p,y becomes [1 - p, p]") {
        TempFile file("p,y\n0.25,1\n1,0\n");
        const calib::CategoricalData data = calib::read_binary(file.path());
        REQUIRE(data.num_classes() == 2);
        CHECK(data.probabilities()(0, 0) == 0.75);
        CHECK(data.probabilities()(0, 1) == 0.25);
        CHECK(data.labels() == std::vector<int>{1, 0});
    }

    TEST_CASE("normal and laplace: mu, scale, y") {
        TempFile file("mu,s,y\n-1.5,2,0.25\n3,0.5,-4e-3\n");
        const calib::NormalData normal = calib::read_normal(file.path());
        CHECK(normal.mean()(0) == -1.5);
        CHECK(normal.stddev()(1) == 0.5);
        CHECK(normal.targets()(1) == -4e-3);
        const calib::LaplaceData laplace = calib::read_laplace(file.path());
        CHECK(laplace.scale()(0) == 2);
        CHECK(laplace.targets()(0) == 0.25);
    }

    TEST_CASE("mvnormal-diag: mu_1..mu_d, sigma_1..sigma_d, y_1..y_d") {
        TempFile file("m1,m2,s1,s2,y1,y2\n1,2,3,4,5,6\n");
        const calib::MvNormalData data = calib::read_mvnormal_diag(file.path());
        REQUIRE(data.is_diagonal());
        REQUIRE(data.dimension() == 2);
        CHECK(data.mean()(0, 1) == 2);
        CHECK(data.stddev()(0, 0) == 3);
        CHECK(data.stddev()(0, 1) == 4);
        CHECK(data.targets()(0, 1) == 6);
    }

    TEST_CASE("mvnormal: the lower triangle row by row, d inferred from the column count") {
        // d = 2: mu1, mu2, S11, S21, S22, y1, y2.
        TempFile two("m1,m2,S11,S21,S22,y1,y2\n1,2,4,1,9,7,8\n");
        const calib::MvNormalData data = calib::read_mvnormal(two.path());
        REQUIRE(!data.is_diagonal());
        REQUIRE(data.dimension() == 2);
        const calib::Matrix& s = data.covariances()[0];
        CHECK(s(0, 0) == 4);
        CHECK(s(1, 0) == 1);
        CHECK(s(0, 1) == 1);
        CHECK(s(1, 1) == 9);
        CHECK(data.mean()(0, 1) == 2);
        CHECK(data.targets()(0, 0) == 7);

        // d = 3 (12 columns): S11, S21, S22, S31, S32, S33 = 1, 0.1, 2, 0.2, 0.3, 3.
        TempFile three("h1,h2,h3,h4,h5,h6,h7,h8,h9,h10,h11,h12\n0,0,0,1,0.1,2,0.2,0.3,3,0,0,0\n");
        const calib::MvNormalData d3 = calib::read_mvnormal(three.path());
        REQUIRE(d3.dimension() == 3);
        CHECK(d3.covariances()[0](2, 0) == 0.2);
        CHECK(d3.covariances()[0](2, 1) == 0.3);
        CHECK(d3.covariances()[0](1, 2) == 0.3);
        CHECK(d3.covariances()[0](2, 2) == 3);

        // d = 1: mu, variance, y.
        TempFile one("mu,var,y\n0,4,1\n");
        CHECK(calib::read_mvnormal(one.path()).covariances()[0](0, 0) == 4);
    }

    TEST_CASE("file errors name the file, the line and the column") {
        SUBCASE("missing file") {
            try {
                calib::read_normal("/nonexistent/calib/no.csv");
                FAIL("no error");
            } catch (const calib::invalid_argument& e) {
                CHECK(contains(e, "/nonexistent/calib/no.csv: cannot open file"));
            }
        }
        SUBCASE("empty and header-only files") {
            CHECK(contains(error_of("", categorical), "empty"));
            CHECK(contains(error_of("a,b,y\n\n", categorical), "no data rows"));
        }
        SUBCASE("a NUL byte, even in the header") {
            CHECK(contains(error_of(std::string("a,b\0x,y\n0.5,0.5,1\n", 18), categorical),
                           ": line 1: byte 4 is a NUL byte: not a text file"));
            CHECK(contains(error_of(std::string("0.5,0.5,1\n0.5,0.5\0,1\n", 21), categorical), ": line 2: byte 8 is a NUL byte"));
        }
        SUBCASE("ragged row") {
            const auto e = error_of("a,b,y\n0.5,0.5,1\n0.5,0.5\n", categorical);
            CHECK(contains(e, ": line 3: found 2 columns, expected 3"));
            CHECK(e.row() == 1);
            CHECK(e.column() == -1);
        }
        SUBCASE("non-numeric cells, quoted") {
            const auto e = error_of("a,b,y\n0.5,1.5abc,1\n", categorical);
            CHECK(contains(e, ": line 2, column 2: cell \"1.5abc\" is not a number"));
            CHECK(e.row() == 0);
            CHECK(e.column() == 1);
            CHECK(contains(error_of("a,b,y\n0.5,,1\n", categorical), "line 2, column 2: cell is empty"));
        }
        SUBCASE("NaN, inf and overflow") {
            for (const char* cell : {"nan", "inf", "-Infinity", "1e400"})
                CHECK(contains(error_of(std::string("a,b,y\n0.5,0.5,1\n") + cell + ",0.5,1\n",
                                        categorical),
                               "line 3, column 1: cell \"" + std::string(cell) +
                                   "\" is not a finite number"));
        }
        SUBCASE("blank line before data") {
            CHECK(contains(error_of("a,b,y\n0.5,0.5,1\n \n0.5,0.5,0\n", categorical),
                           "line 3: line is blank"));
        }
        SUBCASE("labels") {
            CHECK(contains(error_of("a,b,y\n0.5,0.5,0.5\n", categorical),
                           "line 2, column 3: label = 0.5, must be an integer"));
            const auto range = error_of("a,b,y\n0.5,0.5,1\n0.5,0.5,2\n", categorical);
            CHECK(contains(range, "line 3, column 3: label = 2, must be in [0, 1]"));
            CHECK(contains(range, "if they are 1-based, use `one_based_labels`"));
            CHECK(range.column() == 2);
            const auto zero = error_of("a,b,y\n0.5,0.5,0\n", [](const std::string& path) {
                calib::ReadOptions options;
                options.one_based_labels = true;
                calib::read_categorical(path, options);
            });
            CHECK(contains(zero, "line 2, column 3"));
            CHECK(contains(zero, "1-based"));
        }
        SUBCASE("probabilities") {
            const auto simplex = error_of("a,b,y\n0.5,0.5,1\n0.5,0.6,1\n", categorical);
            CHECK(contains(simplex, ": line 3: calib::CategoricalData"));
            CHECK(contains(simplex, "simplex"));
            CHECK(contains(error_of("a,b,y\n-0.5,1.5,1\n", categorical), "line 2, column 1:"));
            CHECK(contains(error_of("p,y\n0.5,1\n1.5,0\n", [](const std::string& path) {
                              calib::read_binary(path);
                          }),
                           "line 3, column 1:"));
            CHECK(contains(error_of("p,y\n0.5,3\n", [](const std::string& path) {
                              calib::read_binary(path);
                          }),
                           "line 2, column 2:"));
        }
        SUBCASE("scales must be positive") {
            CHECK(contains(error_of("m,s,y\n0,1,0\n0,0,0\n", [](const std::string& path) {
                              calib::read_normal(path);
                          }),
                           "line 3, column 2: calib::NormalData"));
            CHECK(contains(error_of("m,b,y\n0,-1,0\n", [](const std::string& path) {
                              calib::read_laplace(path);
                          }),
                           "line 2, column 2: calib::LaplaceData"));
            const auto diag = error_of("m1,m2,s1,s2,y1,y2\n0,0,1,1,0,0\n0,0,1,0,0,0\n",
                                       [](const std::string& path) {
                                           calib::read_mvnormal_diag(path);
                                       });
            CHECK(contains(diag, "line 3, column 4:"));
            CHECK(diag.row() == 1);
            CHECK(diag.column() == 3);
        }
        SUBCASE("covariance not positive definite") {
            CHECK(contains(error_of("m1,m2,a,b,c,y1,y2\n0,0,1,2,1,0,0\n", [](const std::string& path) {
                              calib::read_mvnormal(path);
                          }),
                           "line 2: calib::MvNormalData::full"));
        }
        SUBCASE("column counts that do not fit the family") {
            CHECK(contains(error_of("p,y\n0.5,1\n", categorical), ": found 2 columns, expected at least 3"));
            CHECK(contains(error_of("a,b,c\n1,2,3\n",
                                    [](const std::string& path) { calib::read_binary(path); }),
                           ": found 3 columns, expected 2"));
            CHECK(contains(error_of("a,b\n1,2\n",
                                    [](const std::string& path) { calib::read_normal(path); }),
                           "expected 3"));
            CHECK(contains(error_of("a,b,c,d\n1,2,3,4\n",
                                    [](const std::string& path) { calib::read_laplace(path); }),
                           "expected 3"));
            CHECK(contains(error_of("a,b,c,d\n1,1,1,1\n", [](const std::string& path) {
                              calib::read_mvnormal_diag(path);
                          }),
                           "multiple of 3"));
            for (const char* file : {"a,b\n1,1\n", "a,b,c,d,e\n1,1,1,1,1\n", "1,2,3,4,5,6,7,8\n1,1,1,1,1,1,1,1\n"})
                CHECK(contains(error_of(file, [](const std::string& path) {
                                  calib::read_mvnormal(path);
                              }),
                               "d(d+5)/2"));
        }
    }

    TEST_CASE("header auto: a first line is a header only when it cannot be data") {
        // Names only, and pandas' unnamed columns (their numbers, 0- or 1-based) beside a named one.
        for (const char* header : {"p0,p1,label", "0,1,label", "1,2,label", "\"a\",\"b\",\"y\""}) {
            TempFile file(std::string(header) + "\n0.25,0.75,1\n0.5,0.5,0\n");
            CHECK(calib::read_categorical(file.path()).size() == 2);
        }
        // A data row with a malformed cell is an error at line 1, never a header that drops the row
        // (the campaign's case: "0.1x"); so is a row whose numbers are not the column numbers.
        // (A one-hot row "0,1,1x" is the one data row the rule cannot tell from pandas' "0,1,label".)
        for (const char* row : {"0.1x,0.9,1", "0.25,0.75,1x", "1,0,y", "0,2,label", "0.0,1,label"}) {
            const auto e = error_of(std::string(row) + "\n0.25,0.75,1\n", categorical);
            CHECK(contains(e, ": line 1, column "));
            CHECK(contains(e, "(line 1 is read as data, as other cells of it are numbers; a header has names only: else use --header yes)"));
        }
        // --header yes still takes any first line.
        TempFile file("0.1x,0.9,1\n0.25,0.75,1\n");
        calib::ReadOptions yes;
        yes.text.header = calib::HeaderMode::yes;
        CHECK(calib::read_categorical(file.path(), yes).size() == 1);
    }

    TEST_CASE("read_class_predictions: the map's columns, checked as read_categorical checks them") {
        calib::ReadOptions three;
        three.classes = 3;
        TempFile good("p0,p1,p2\n0.2,0.3,0.5\n0.6,0.2,0.2\n");
        calib::FileSummary summary;
        const calib::Matrix p = calib::read_class_predictions(good.path(), three, &summary);
        CHECK(p.rows() == 2);
        CHECK(p(1, 0) == 0.6);
        CHECK(summary.header);
        const auto read = [&](const calib::ReadOptions& o) {
            return [o](const std::string& path) { calib::read_class_predictions(path, o); };
        };
        CHECK(contains(error_of("0.2,0.3,0.5,1\n", read(three)),
                       "found 4 columns, expected 3 (the map's m = 3 class probabilities; if the last column holds the labels, give `labelled`)"));
        CHECK(contains(error_of("0.2,0.3,0.5\n0.2,0.3,0.6\n", read(three)), "line 2"));
        CHECK(contains(error_of("0.2,1.3,-0.5\n", read(three)), "line 1"));
        calib::ReadOptions renormalized = three;
        renormalized.simplex.renormalize = true;
        TempFile off("0.2,0.3,0.6\n");
        CHECK(calib::read_class_predictions(off.path(), renormalized).row(0).sum() == doctest::Approx(1).epsilon(1e-15));
        calib::ReadOptions logits = three;
        logits.logits = true;
        TempFile scores("-3,2.5,40\n");
        CHECK(calib::read_class_predictions(scores.path(), logits)(0, 2) == 40);
        // read_categorical with the classes given: the column count is checked before any value.
        calib::ReadOptions labelled = three;
        CHECK(contains(error_of("0.2,0.3,0.4,0.1,7\n", [&](const std::string& path) { calib::read_categorical(path, labelled); }),
                       "found 5 columns, expected 4 (the m = 3 class probabilities, then the label)"));
    }

    TEST_CASE("check_not_an_input: the same file by name, link, hard link or standard input") {
        namespace fs = std::filesystem;
        const fs::path dir = fs::temp_directory_path() / ("calib_test_inputs_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        const std::string input = (dir / "preds.csv").string(), other = (dir / "other.csv").string();
        std::ofstream(input) << "0.5,0.5,1\n";
        std::ofstream(other) << "0.5,0.5,1\n";  // the same bytes, another file
        fs::create_symlink("preds.csv", dir / "link.csv");
        fs::create_hard_link(input, dir / "hard.csv");
        const std::vector<calib::FileOption> inputs = {{"labels", other}, {"input", input}};
        for (const std::string& target : {input, (dir / "link.csv").string(), (dir / "hard.csv").string(),
                                          (dir / "." / "preds.csv").string()}) {
            const std::string expected = "`out` " + target + " is the same file as `input` " + input +
                                         ": calib never writes over a file it reads (it was left unchanged); give `out` "
                                         "another file";
            CHECK_THROWS_WITH_AS(calib::check_not_an_input({"out", target}, inputs), expected.c_str(),
                                 calib::invalid_argument);
        }
        // Another file, a new file, a device and standard output are no input.
        for (const std::string& target : {(dir / "new.csv").string(), std::string("/dev/null"), std::string("-")})
            calib::check_not_an_input({"out", target}, inputs);
        calib::check_not_an_input({"out", (dir / "third.csv").string()}, {{"input", "-"}});
        // "-" is whatever standard input is: here a file redirected to it.
        const int saved = ::dup(STDIN_FILENO);
        REQUIRE(std::freopen(input.c_str(), "r", stdin) != nullptr);
        CHECK_THROWS_WITH_AS(calib::check_not_an_input({"output", (dir / "hard.csv").string()}, {{"input", "-"}}),
                             doctest::Contains("is the same file as `input` stdin"), calib::invalid_argument);
        ::dup2(saved, STDIN_FILENO);
        ::close(saved);
        std::clearerr(stdin);
        fs::remove_all(dir);
    }

    TEST_CASE("json: insertion order, replacement, numbers, strings, nesting") {
        calib::JsonObject inner;
        inner.set("b", 1).set("a", std::vector<double>{0.5, -2, std::nan("")});
        calib::JsonObject out;
        out.set("z", 0.1)
            .set("n", std::size_t{12})
            .set("neg", -3)
            .set("flag", true)
            .set("name", "a \"q\" \\ \n\t\x01 é")
            .set("nested", inner)
            .set("nan", std::numeric_limits<double>::quiet_NaN())
            .set("inf", -std::numeric_limits<double>::infinity())
            .set_null("none")
            .set("empty", calib::JsonObject());
        CHECK(out.dump() ==
              "{\"z\":0.1,\"n\":12,\"neg\":-3,\"flag\":true,"
              "\"name\":\"a \\\"q\\\" \\\\ \\n\\t\\u0001 é\",\"nested\":{\"b\":1,\"a\":[0.5,-2,null]},"
              "\"nan\":null,\"inf\":null,\"none\":null,\"empty\":{}}");
        // Setting an existing key replaces the value in place.
        out.set("z", "first").set("nested", 2.5);
        CHECK(out.size() == 10);
        CHECK(out.dump().rfind("{\"z\":\"first\",\"n\":12", 0) == 0);
        CHECK(out.dump().find("\"nested\":2.5,") != std::string::npos);
        CHECK(out.contains("none"));
        CHECK(!out.contains("missing"));
    }

    TEST_CASE("json: the numbers written null are listed with their paths; replacing one clears it") {
        const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
        calib::JsonObject model;
        model.set("nll", inf).set("counts", std::vector<double>{1, nan, -inf}).set("ok", 2.0);
        calib::JsonObject out;
        out.set("statistic", -inf)
            .set("estimate", 0.5)
            .set_null("absent")  // a null by choice, not a number that is not finite
            .set("model", model)
            .set("models", std::vector<calib::JsonObject>{calib::JsonObject().set("x", 1), model});
        CHECK(out.non_finite() == std::vector<std::string>{"statistic = -inf", "model.nll = inf", "model.counts[1] = nan",
                                                           "model.counts[2] = -inf", "models[1].nll = inf",
                                                           "models[1].counts[1] = nan", "models[1].counts[2] = -inf"});
        out.set("statistic", 1.5).set("model", 0.0).set("models", std::vector<double>{});
        CHECK(out.non_finite().empty());
        // A record's fields, nested records included: what every front-end warns of.
        const calib::Record record{{"estimate", 0.1}, {"p_value", nan}, {"details", calib::Record{{"z", -inf}}}};
        CHECK(calib::non_finite_fields(record) == std::vector<std::string>{"p_value = nan", "details.z = -inf"});
    }

    TEST_CASE("json: doubles read back bitwise; pretty printing") {
        const double x = 1.0 / 3.0;
        CHECK(std::strtod(calib::json_number(x).c_str(), nullptr) == x);
        CHECK(calib::json_number(1e300) == "1e+300");  // the shortest form that reads back
        CHECK(calib::json_number(0.05) == "0.05");
        CHECK(calib::json_number(0.1 + 0.2) == "0.30000000000000004");
        CHECK(calib::json_number(2) == "2");
        calib::JsonObject out;
        out.set("a", 1).set("b", calib::JsonObject().set("c", "d"));
        CHECK(out.dump(2) == "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": \"d\"\n  }\n}");
        CHECK(calib::JsonObject().dump(2) == "{}");
        // An object can be nested into itself (a copy is taken).
        out.set("self", out);
        CHECK(out.dump() == "{\"a\":1,\"b\":{\"c\":\"d\"},\"self\":{\"a\":1,\"b\":{\"c\":\"d\"}}}");
    }

    TEST_CASE("json: arrays of strings and of objects") {
        calib::JsonObject out;
        out.set("s", std::vector<std::string>{"a.csv", "q\""})
            .set("o", std::vector<calib::JsonObject>{calib::JsonObject().set("x", 1), calib::JsonObject()})
            .set("e", std::vector<calib::JsonObject>{});
        CHECK(out.dump() == "{\"s\":[\"a.csv\",\"q\\\"\"],\"o\":[{\"x\":1},{}],\"e\":[]}");
        CHECK(out.dump(2) == "{\n  \"s\": [\"a.csv\",\"q\\\"\"],\n  \"o\": [\n    {\n      \"x\": 1\n    },\n    {}\n  ],\n  \"e\": []\n}");
        // Replacing an array by a number, and a number by an array.
        out.set("o", 2.5).set("s", std::vector<calib::JsonObject>{calib::JsonObject().set("y", true)});
        CHECK(out.dump() == "{\"s\":[{\"y\":true}],\"o\":2.5,\"e\":[]}");
    }

    TEST_CASE("write_file: whole or not at all; links, FIFOs, read-only files, stale partial files") {
        namespace fs = std::filesystem;
        const fs::path dir = fs::temp_directory_path() / ("calib_test_write_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        const auto text = [](const fs::path& p) {
            std::ifstream in(p, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        };
        const auto partials = [&] {
            int count = 0;
            for (const auto& entry : fs::directory_iterator(dir))
                count += entry.path().filename().string().find(".calib-partial-") != std::string::npos;
            return count;
        };
        const std::string target = (dir / "out.csv").string();

        // A new file, then a replacement that keeps the replaced file's permissions; nothing else left.
        calib::write_file(target, std::string("a\0b", 3));
        CHECK(text(target) == std::string("a\0b", 3));
        fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        calib::write_file(target, "second");
        CHECK(text(target) == "second");
        CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
        calib::write_file(target, "");
        CHECK(fs::file_size(target) == 0);
        CHECK(partials() == 0);

        // A link: its target is updated, the link stays (relative links resolve from the link's folder).
        fs::create_directory(dir / "sub");
        fs::create_symlink("../out.csv", dir / "sub" / "link.csv");
        calib::write_file((dir / "sub" / "link.csv").string(), "through the link");
        CHECK(fs::is_symlink(dir / "sub" / "link.csv"));
        CHECK(text(target) == "through the link");
        // A dangling link creates its target.
        fs::create_symlink("created.csv", dir / "dangling.csv");
        calib::write_file((dir / "dangling.csv").string(), "new");
        CHECK(fs::is_symlink(dir / "dangling.csv"));
        CHECK(text(dir / "created.csv") == "new");

        // A FIFO is written through: the reader gets the bytes and the FIFO stays.
        const std::string fifo = (dir / "pipe").string();
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        std::string received;
        std::thread reader([&] { received = text(fifo); });
        calib::write_file(fifo, "to the reader");
        reader.join();
        CHECK(received == "to the reader");
        CHECK(fs::is_fifo(fifo));

        // Refused with the target unchanged: a read-only file (even for root), a folder, a missing
        // folder, an empty name; check_writable refuses the same before any work.
        fs::permissions(target, fs::perms::owner_read);
        for (const auto& write : {std::function<void()>([&] { calib::write_file(target, "x"); }),
                                  std::function<void()>([&] { calib::check_writable(target); })})
            CHECK_THROWS_WITH_AS(write(), doctest::Contains("read-only"), calib::invalid_argument);
        CHECK(text(target) == "through the link");
        fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
        CHECK_THROWS_WITH_AS(calib::write_file(dir.string(), "x"), doctest::Contains("directory"), calib::invalid_argument);
        CHECK_THROWS_WITH_AS(calib::check_writable((dir / "no" / "x.csv").string()), doctest::Contains("does not exist"),
                             calib::invalid_argument);
        CHECK_THROWS_AS(calib::write_file("", "x"), calib::invalid_argument);
        calib::check_writable((dir / "fresh.csv").string());
        CHECK(!fs::exists(dir / "fresh.csv"));
        CHECK(partials() == 0);

        // /dev/full refuses every byte: an error, and the device is still a device.
        if (fs::exists("/dev/full")) {
            CHECK_THROWS_WITH_AS(calib::write_file("/dev/full", "x"), doctest::Contains("No space left"), calib::invalid_argument);
            CHECK(fs::is_character_file("/dev/full"));
        }

        // The partial file of a process that no longer exists goes at the next write to its target;
        // that of a live process (ours, under another number) stays.
        const pid_t child = ::fork();
        if (child == 0) ::_exit(0);
        REQUIRE(child > 0);
        ::waitpid(child, nullptr, 0);
        const fs::path stale = dir / ("out.csv.calib-partial-" + std::to_string(child) + "-0");
        const fs::path live = dir / ("out.csv.calib-partial-" + std::to_string(::getppid()) + "-0");
        std::ofstream(stale) << "half";
        std::ofstream(live) << "half";
        calib::write_file(target, "after the kill");
        CHECK(!fs::exists(stale));
        CHECK(fs::exists(live));
        CHECK(text(target) == "after the kill");
        fs::remove_all(dir);
    }
}
