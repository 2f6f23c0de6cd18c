// The bytes of a task's result (cluster.hpp, Packet): values copied as they are in memory, so that
// a number comes back bitwise; both ends are the same program on the same kind of machine.
#include "cluster.hpp"

#include <cstring>
#include <stdexcept>

namespace repro {

void Packet::put(double value) { bytes_.append(reinterpret_cast<const char*>(&value), sizeof value); }

void Packet::put(std::uint64_t value) { bytes_.append(reinterpret_cast<const char*>(&value), sizeof value); }

void Packet::put(const std::string& value) {
    put(static_cast<std::uint64_t>(value.size()));
    bytes_ += value;
}

void Packet::put(const std::vector<std::string>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    for (const std::string& v : values) put(v);
}

void Packet::put(const std::vector<double>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}

void Packet::read(void* to, std::size_t size) {
    if (size > bytes_.size() - read_) throw std::logic_error("Packet: read past the end of a task's result");
    std::memcpy(to, bytes_.data() + read_, size);
    read_ += size;
}

double Packet::get_double() {
    double value = 0;
    read(&value, sizeof value);
    return value;
}

std::uint64_t Packet::get_size() {
    std::uint64_t value = 0;
    read(&value, sizeof value);
    return value;
}

std::string Packet::get_string() {
    std::string value(get_size(), '\0');
    read(value.data(), value.size());
    return value;
}

std::vector<std::string> Packet::get_strings() {
    std::vector<std::string> values(get_size());
    for (std::string& v : values) v = get_string();
    return values;
}

std::vector<double> Packet::get_doubles() {
    std::vector<double> values(get_size());
    read(values.data(), values.size() * sizeof(double));
    return values;
}

}  // namespace repro
