// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/KitLoader.h"
#include "kit/KitV3Descriptor.h"

namespace paddock::kit {

/**
 * The kit a schemaVersion "3" descriptor becomes in Paddock, named @p name.
 *
 * Each capability request is carried out with what Paddock has (implementedV3Capabilities()) and
 * recorded in Kit::capabilities: network-policy@1 becomes the kit's rules, credential@1 a
 * credential injected by the proxy, port@1 a published port, resources@1 the sandbox's limits,
 * lifecycle@1 its setup, volume@1 a volume, long-running@1 is what a sandbox does anyway. A
 * required request of any other type refuses the kit with an error naming the type; an optional
 * one is skipped and recorded. Arguments are substituted into the configurations (given values,
 * else defaults); `env:` arguments become environment variables. The image is not named here:
 * the caller sets `sandbox.image` to the image the kit was loaded with.
 */
KitLoadResult kitFromV3(const V3Descriptor &descriptor, const QString &name, const QString &fileName,
                        const KitLoadOptions &options = {});

} // namespace paddock::kit
