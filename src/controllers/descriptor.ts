// One controller, as the rest of kctl sees it: the parts each shared layer drives, joined. Each
// part's shape is defined by the layer that uses it (sources/part.ts for reading, reconcile/part.ts
// for planning, render/part.ts for tables, apply/part.ts for carrying plans out, watch/part.ts for
// kctl watch, simulate/part.ts and check/part.ts); a controller folder's index.ts fills them in,
// and registry.ts lists the controllers. A planOnly controller may lack
// the apply and watch parts: the layers leave it out of reconcile and watch.
import type {ApplyPart} from '../apply/part.js'
import type {CheckPart} from '../check/part.js'
import type {PlanPart} from '../reconcile/part.js'
import type {RenderPart} from '../render/part.js'
import type {SimulatePart} from '../simulate/part.js'
import type {ReadPart} from '../sources/part.js'
import type {WatchPart} from '../watch/part.js'

export interface ControllerDescriptor extends ReadPart, PlanPart, RenderPart, Partial<ApplyPart>, Partial<WatchPart>, SimulatePart, CheckPart {}
