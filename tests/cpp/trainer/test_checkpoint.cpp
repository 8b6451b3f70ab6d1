// The trainer's checkpoint: what is saved loads back bit for bit; a damaged or
// foreign file is refused with a message, never read past its end.
#include <doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "train/checkpoint.hpp"

using namespace attention::train;

namespace {

std::string temp_path(const char* name) { return std::string(P_tmpdir) + "/attention-lab-" + name; }

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string error_of(const std::string& path) {
    try {
        load_checkpoint(path);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("checkpoint: saved params load back exactly") {
    const EncoderParams<float> p = init_params<float>(EncoderShape{11, 8, 2, 12, 2}, 5);
    const std::string path = temp_path("roundtrip.bin");
    save_checkpoint(p, path);
    const EncoderParams<float> q = load_checkpoint(path);
    CHECK(q.shape.vocab == 11);
    CHECK(q.shape.layers == 2);
    std::vector<const Mat<float>*> blocks;
    q.for_each([&](const std::string&, const Mat<float>& m) { blocks.push_back(&m); });
    std::size_t k = 0;
    p.for_each([&](const std::string& name, const Mat<float>& m) {
        CAPTURE(name);
        CHECK(*blocks[k++] == m);
    });
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: a truncated, foreign or altered file is refused with a reason") {
    const std::string good = temp_path("good.bin"), bad = temp_path("bad.bin");
    save_checkpoint(init_params<float>(EncoderShape{11, 8, 2, 12, 1}, 5), good);
    const std::string bytes = read_all(good);
    write_all(bad, bytes.substr(0, bytes.size() - 7));
    CHECK(error_of(bad).find("ends inside block") != std::string::npos);
    write_all(bad, "NOTACHECKPOINT" + bytes);
    CHECK(error_of(bad).find("not a trainer checkpoint") != std::string::npos);
    std::string shape = bytes;
    shape[12] = '\x07';  // d_model 8 → 7: not divisible by 2 heads
    write_all(bad, shape);
    CHECK(error_of(bad).find("out of range") != std::string::npos);
    std::string renamed = bytes;
    renamed[renamed.find("ln0_gain")] = 'X';
    write_all(bad, renamed);
    CHECK(error_of(bad).find("expected block ln0_gain") != std::string::npos);
    write_all(bad, bytes + "extra");
    CHECK(error_of(bad).find("unexpected blocks") != std::string::npos);
    CHECK(error_of(temp_path("missing.bin")).find("cannot read") != std::string::npos);
    std::remove(good.c_str());
    std::remove(bad.c_str());
}
