// guarded(): a call into the core whose value crosses into JS by one of the js() conversions
// declared before it (to_js.hpp, claims_to_js.hpp), or whose C++ exception does as
// {error, code, params}. The bindings include this header.
#pragma once

#include <new>
#include <string>
#include <type_traits>

#include "after_to_js.hpp"
#include "claims_to_js.hpp"
#include "exercises_to_js.hpp"
#include "to_js.hpp"

namespace attention_binding {

// Runs body and hands back its value as JS, or its error as {error, code, params}. The catching
// is one function for every binding (guard()), not one copy per call's type: the wasm carries
// the handlers once.
[[gnu::noinline]] inline val guard(val (*call)(void*), void* body) {
    try {
        return call(body);
    } catch (const Error& e) {
        return error_value(e.code(), e.what(), e.params());
    } catch (const std::bad_alloc&) {
        return error_value("out_of_memory", "the computation ran out of memory");
    } catch (const std::exception& e) {
        return error_value("internal", std::string("internal error: ") + e.what());
    }
}

template <class F>
inline val guarded(F&& body) {
    using Body = std::remove_reference_t<F>;
    return guard([](void* b) { return js((*static_cast<Body*>(b))()); },
                 const_cast<void*>(static_cast<const void*>(&body)));
}

}  // namespace attention_binding
