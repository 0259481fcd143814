// SPDX-License-Identifier: GPL-3.0-or-later
// The sandbox fixture lives in tests/support (paddock_test_support); this name stays for the
// tests that still include it from here.
#pragma once

#include "../../support/SandboxFixture.h"
