//! 16×16 pixel-art item icons, built from the item registry: a shape per
//! kind of item (tool kinds, ingot, nugget, gem, dust, lump, food, armour
//! pieces, …) filled from a palette of its material, and blocks drawn as a
//! small cube of their own textures. The hotbar, the inventory screen and
//! the held item draw them (`hud`).
//!
//! Shapes are 16 rows of 16 characters: `.` is see-through, `o` the
//! outline, `d`/`m`/`l`/`w` the material's dark, mid, light and highlight
//! shades, `h`/`H` wood of a handle, `x` the item's accent colour.

use super::{TEX, texel, textures};
use crate::data::{ItemId, Pattern, ToolKind, data};
use crate::noise::unit;
use std::sync::OnceLock;

/// Icon side in pixels.
pub const ICON: usize = 16;

/// One icon: RGBA, row-major; alpha 0 is see-through, else 255.
pub type Icon = [[u8; 4]; ICON * ICON];

type Shape = [&'static str; ICON];

const BLANK: &str = "................";

const PICKAXE: Shape = [
    BLANK,
    ".....oooooo.....",
    "....ollllllo....",
    ".....oommmmdo...",
    "........oommdo..",
    ".......ohoodmdo.",
    "......ohHo.odmo.",
    ".....ohHo..odmo.",
    "....ohHo....odo.",
    "...ohHo.....odo.",
    "..ohHo.......oo.",
    ".ohHo...........",
    ".oHo............",
    "..o.............",
    BLANK,
    BLANK,
];

const AXE: Shape = [
    BLANK,
    "........ooo.....",
    ".......ollmo....",
    "......ollmmdo...",
    "......olmmhodo..",
    ".......oohHmdo..",
    "........ohHdo...",
    ".......ohHoo....",
    "......ohHo......",
    ".....ohHo.......",
    "....ohHo........",
    "...ohHo.........",
    "..ohHo..........",
    ".ohHo...........",
    ".oo.............",
    BLANK,
];

const SHOVEL: Shape = [
    BLANK,
    "...........ooo..",
    "..........ollmo.",
    ".........ollmmdo",
    ".........olmmmdo",
    "..........omddo.",
    ".........ohooo..",
    "........ohHo....",
    ".......ohHo.....",
    "......ohHo......",
    ".....ohHo.......",
    "....ohHo........",
    "...ohHo.........",
    "..ohHo..........",
    "..oo............",
    BLANK,
];

const HOE: Shape = [
    BLANK,
    "......oooooo....",
    ".....ollmmmdo...",
    "......oooohHdo..",
    "........ohHoo...",
    ".......ohHo.....",
    "......ohHo......",
    ".....ohHo.......",
    "....ohHo........",
    "...ohHo.........",
    "..ohHo..........",
    ".ohHo...........",
    ".oo.............",
    BLANK,
    BLANK,
    BLANK,
];

const SWORD: Shape = [
    BLANK,
    ".............oo.",
    "............olwo",
    "...........olmo.",
    "..........olmo..",
    ".........olmo...",
    "........olmo....",
    "..oo...olmo.....",
    "..olo.olmo......",
    "...olodmo.......",
    "....oddo........",
    "...ohHolo.......",
    "..ohHo.oo.......",
    ".ohHo...........",
    ".oo.............",
    BLANK,
];

const SHEARS: Shape = [
    BLANK,
    BLANK,
    "..........oo....",
    ".........olmo...",
    "........olmo....",
    ".......olmo.oo..",
    "......olmoolmo..",
    ".....olmolmo....",
    "......oomo......",
    ".....oxxooo.....",
    "....oxo..oxo....",
    "...oxo....oxo...",
    "...oxo....oxo...",
    "....oo.....oo...",
    BLANK,
    BLANK,
];

const INGOT: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "......oooooooo..",
    ".....ollllllmo..",
    "....ollllllmmdo.",
    "...ommmmmmmmddo.",
    "..ommmmmmmmddo..",
    "..odddddddddo...",
    "..ooooooooooo...",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const NUGGET: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "......ooo.......",
    ".....olmdo......",
    "....olmmmdoo....",
    "....ommddolmo...",
    ".....oooodmdo...",
    "........oooo....",
    BLANK,
    BLANK,
    BLANK,
];

const GEM: Shape = [
    BLANK,
    BLANK,
    BLANK,
    ".....oooooo.....",
    "....olwllmmo....",
    "...olwlllmmdo...",
    "..olllllmmmmdo..",
    "..ommmmmmmmddo..",
    "...odmmmmmddo...",
    "....odmmmddo....",
    ".....odmddo.....",
    "......oddo......",
    ".......oo.......",
    BLANK,
    BLANK,
    BLANK,
];

const FLAKE: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    ".......oo.......",
    ".....oolmo......",
    "....olllmmoo....",
    "...olmmlmmmdo...",
    "..olmmmmdmmdo...",
    "..odmmmmmmddo...",
    "...oddmmmddo....",
    "....ooddddo.....",
    "......oooo......",
    BLANK,
    BLANK,
    BLANK,
];

const DUST: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "........o.......",
    "......olmo..o...",
    "...o.olmmmo.om..",
    "..omoolmmmmdo...",
    "...ommmmmmmmdo..",
    "..ommmmmddmmmdo.",
    ".odmmmmmdddmmdo.",
    ".ooooooooooooooo",
    BLANK,
    BLANK,
];

const LUMP: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "......oooo......",
    "....oolllmoo....",
    "...olllmmmmdo...",
    "..olmlmmmdmmdo..",
    "..ommmmdmmmmdo..",
    "..omdmmmmmddo...",
    "...oddmmmdddo...",
    "....oodddoo.....",
    "......oooo......",
    BLANK,
    BLANK,
    BLANK,
];

const SHARD: Shape = [
    BLANK,
    BLANK,
    BLANK,
    ".........oo.....",
    "........olmo....",
    ".......ollmo....",
    "......olmmmdo...",
    ".....olmmmmdo...",
    "....olmmmmddo...",
    "....ommmmmddo...",
    ".....odmmddo....",
    "......odddo.....",
    ".......ooo......",
    BLANK,
    BLANK,
    BLANK,
];

const BALL: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "......oooo......",
    "....oowllmoo....",
    "...owlllmmmdo...",
    "...olllmmmmdo...",
    "..ollmmmmmmddo..",
    "..ommmmmmmmddo..",
    "...ommmmmdddo...",
    "...oddmmddddo...",
    "....oodddddo....",
    "......oooo......",
    BLANK,
    BLANK,
];

const SEEDS: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "......o.........",
    ".....olo...o....",
    "..o...o...olo...",
    ".olo.......o....",
    "..o...o.........",
    ".....olo....o...",
    "......o....olo..",
    "............o...",
    BLANK,
    BLANK,
    BLANK,
];

const HIDE: Shape = [
    BLANK,
    BLANK,
    "...oo......oo...",
    "..olmo....olmo..",
    "...olmoooomdo...",
    "...olmmmmmmdo...",
    "....olmmmmdo....",
    "....ommmmmdo....",
    "....ommmmmdo....",
    "...ommmmmmmdo...",
    "..olmmmmmmmmdo..",
    "..odmo....omdo..",
    "...oo......oo...",
    BLANK,
    BLANK,
    BLANK,
];

const FEATHER: Shape = [
    BLANK,
    "............oo..",
    "..........oowo..",
    ".........owlmo..",
    "........owlmo...",
    ".......owlmdo...",
    "......owlmdo....",
    ".....owlmdo.....",
    "....owlmdo......",
    "....olmdo.......",
    "...ohodo........",
    "..oho.o.........",
    ".oho............",
    ".oo.............",
    BLANK,
    BLANK,
];

const BONE_SHAPE: Shape = [
    BLANK,
    "...........oo...",
    "..........owwo..",
    "..........owlmo.",
    ".........olmoo..",
    "........olmo....",
    ".......olmo.....",
    "......olmo......",
    ".....olmo.......",
    "....olmo........",
    "..oolmo.........",
    ".omlwo..........",
    "..omdo..........",
    "...oo...........",
    BLANK,
    BLANK,
];

const ARROW: Shape = [
    BLANK,
    "..........ooooo.",
    "...........ollo.",
    "..........olmmo.",
    ".........ohodmo.",
    "........ohHo.oo.",
    ".......ohHo.....",
    "......ohHo......",
    ".....ohHo.......",
    "....ohHo........",
    ".oxohHo.........",
    ".oxxHo..........",
    "..oxxo..........",
    "...oo...........",
    BLANK,
    BLANK,
];

const STRING: Shape = [
    BLANK,
    BLANK,
    "..........oo....",
    ".........olo....",
    "....oo...olo....",
    "...olmo..olo....",
    "...olo...omo....",
    "...olo..olo.....",
    "....omoolo......",
    ".....ommo.......",
    "......oo........",
    "......olo.......",
    ".......olo..oo..",
    "........ollmo...",
    ".........oo.....",
    BLANK,
];

const EYE: Shape = [
    BLANK,
    BLANK,
    BLANK,
    ".....oooooo.....",
    "...oommmmmmoo...",
    "..ommlllllmmmo..",
    ".omllwxxxxlmmdo.",
    ".omlwxxxxxxlmdo.",
    ".omllxxxxxxlmdo.",
    "..omllxxxxlmdo..",
    "...oommmmmddo...",
    ".....oooooo.....",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const STEAK: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    ".....oooooo.....",
    "...oollllmmoo...",
    "..olllmmmmmmdo..",
    ".olmmmmmmmmmmdo.",
    ".olmmmxxmmmmmdo.",
    ".ommmxxxmmmmddo.",
    "..ommmxmmmmddo..",
    "...oodmmmddoo...",
    ".....oooooo.....",
    BLANK,
    BLANK,
    BLANK,
];

const DRUMSTICK: Shape = [
    BLANK,
    BLANK,
    "........oooo....",
    "......oolllmo...",
    ".....olllmmmdo..",
    ".....ollmmmmdo..",
    ".....olmmmmmdo..",
    "......ommmmddo..",
    ".....oommddoo...",
    "....oxxoooo.....",
    "...oxxo.........",
    "..owxo..........",
    ".owwo...........",
    ".ooo............",
    BLANK,
    BLANK,
];

const APPLE: Shape = [
    BLANK,
    BLANK,
    "........oo......",
    ".......oHo.oo...",
    "....oooohoxxo...",
    "...olwlmhooo....",
    "..olwlmmmmmmdo..",
    "..olllmmmmmmdo..",
    "..ommmmmmmmmdo..",
    "..ommmmmmmmddo..",
    "...ommmmmmddo...",
    "....oddmmddo....",
    ".....oo..oo.....",
    BLANK,
    BLANK,
    BLANK,
];

const STICK: Shape = [
    BLANK,
    BLANK,
    "............oo..",
    "...........ohHo.",
    "..........ohHo..",
    ".........ohHo...",
    "........ohHo....",
    ".......ohHo.....",
    "......ohHo......",
    ".....ohHo.......",
    "....ohHo........",
    "...ohHo.........",
    "..ohHo..........",
    ".ohHo...........",
    ".oo.............",
    BLANK,
];

const HELMET: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "....oooooooo....",
    "...ollllllmmo...",
    "..olmmmmmmmmdo..",
    "..olmoooooomdo..",
    "..olo......odo..",
    "..oo........oo..",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const CHESTPLATE: Shape = [
    BLANK,
    BLANK,
    "..ooo......ooo..",
    ".ollmoooooommdo.",
    ".olmmmllllmmmdo.",
    ".olmmmmmmmmmmdo.",
    ".ooolmmmmmmdooo.",
    "...olmmmmmmdo...",
    "...olmmmmmmdo...",
    "...olmmmmmmdo...",
    "...ommmmmmmdo...",
    "...oddddddddo...",
    "...oooooooooo...",
    BLANK,
    BLANK,
    BLANK,
];

const LEGGINGS: Shape = [
    BLANK,
    BLANK,
    "...oooooooooo...",
    "...olllllmmdo...",
    "...olmmmmmmdo...",
    "...olmmoommdo...",
    "...olmo..omdo...",
    "...olmo..omdo...",
    "...olmo..omdo...",
    "...olmo..omdo...",
    "...ommo..omdo...",
    "...oooo..oooo...",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const BOOTS: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    "...oooo..oooo...",
    "...olmo..olmo...",
    "...olmo..olmo...",
    ".oolmmo.oolmmo..",
    ".olmmdo.olmmdo..",
    ".oooooo.oooooo..",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const BOWL: Shape = [
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    BLANK,
    ".oooooooooooooo.",
    ".olllllllllllmo.",
    "..ommmmmmmmmdo..",
    "...ommmmmmmdo...",
    "....ooddddoo....",
    "......oooo......",
    BLANK,
    BLANK,
    BLANK,
];

const LADDER: Shape = [
    "..oo......oo....",
    "..om......mo....",
    "..ommmmmmmmo....",
    "..odddddddd.o...",
    "..om......mo....",
    "..om......mo....",
    "..ommmmmmmmo....",
    "..odddddddd.o...",
    "..om......mo....",
    "..om......mo....",
    "..ommmmmmmmo....",
    "..odddddddd.o...",
    "..om......mo....",
    "..om......mo....",
    "..oo......oo....",
    BLANK,
];

const BUCKET: Shape = [
    BLANK,
    BLANK,
    BLANK,
    "...oooooooooo...",
    "..oddddddddddo..",
    "..olddddddddmo..",
    "..olmmmmmmmmdo..",
    "...olmmmmmmdo...",
    "...olmmmmmmdo...",
    "...olmmmmmmdo...",
    "....olmmmmdo....",
    "....oooooooo....",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const HOPPER: Shape = [
    BLANK,
    BLANK,
    ".oooooooooooooo.",
    ".odddddddddddmo.",
    ".olmmmmmmmmmmdo.",
    ".oooolmmmmdoooo.",
    "....olmmmmdo....",
    "....olmmmmdo....",
    ".....olmmdo.....",
    ".....olmmdo.....",
    "......omdo......",
    "......oooo......",
    BLANK,
    BLANK,
    BLANK,
    BLANK,
];

const RAIL: Shape = [
    "...om.....om....",
    ".hhomhhhhhomhh..",
    ".HHomHHHHHomHH..",
    "...om.....om....",
    "...om.xx..om....",
    ".hhomhxxhhomhh..",
    ".HHomHxxHHomHH..",
    "...om.xx..om....",
    "...om.xx..om....",
    ".hhomhxxhhomhh..",
    ".HHomHxxHHomHH..",
    "...om.xx..om....",
    "...om.....om....",
    ".hhomhhhhhomhh..",
    ".HHomHHHHHomHH..",
    "...om.....om....",
];

const HOOK: Shape = [
    BLANK,
    BLANK,
    ".......ooo......",
    "......olmmo.....",
    "......om.do.....",
    "......olmmo.....",
    ".......ooo......",
    "........oHo.....",
    "........ohHo....",
    "........ohHo....",
    "........ohHo....",
    ".......oohHo....",
    "......olmdHo....",
    ".......oooo.....",
    BLANK,
    BLANK,
];

const CHAIN: Shape = [
    "......oooo......",
    ".....om..mo.....",
    ".....om..mo.....",
    "......omdo......",
    ".......oo.......",
    "......oooo......",
    ".....ol..lo.....",
    ".....ol..lo.....",
    "......oldo......",
    ".......oo.......",
    "......oooo......",
    ".....om..mo.....",
    ".....om..mo.....",
    "......omdo......",
    ".......oo.......",
    BLANK,
];

const BARS: Shape = [
    ".oooooooooooooo.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".oddddddddddddo.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".om..om..om..om.",
    ".oooooooooooooo.",
    BLANK,
];

const TORCH: Shape = [
    BLANK,
    BLANK,
    ".......oo.......",
    "......owxo......",
    "......oxxo......",
    "......oxxo......",
    ".......hH.......",
    ".......hH.......",
    ".......hH.......",
    ".......hH.......",
    ".......hH.......",
    ".......hH.......",
    ".......hH.......",
    ".......oo.......",
    BLANK,
    BLANK,
];

const COMPASS: Shape = [
    BLANK,
    BLANK,
    BLANK,
    ".....oooooo.....",
    "....ommmmmmo....",
    "...omwwwwwwmo...",
    "..omwwwwxwwwmo..",
    "..omwwwxwwwwmo..",
    "..omwwwoowwwmo..",
    "..omwwwwwwwwmo..",
    "...omwwwwwwmo...",
    "....ommmmmmo....",
    ".....oooooo.....",
    BLANK,
    BLANK,
    BLANK,
];

const SHIELD: Shape = [
    BLANK,
    "..oooooooooooo..",
    "..ohhhhhhhhhho..",
    "..ohhhhxxhhhho..",
    "..ohhhxxxxhhho..",
    "..ohhhhxxhhhho..",
    "..oHhhhhhhhhHo..",
    "..oHhhhhhhhhHo..",
    "..oHhhhhhhhhHo..",
    "...oHhhhhhhHo...",
    "...oHhhhhhhHo...",
    "....oHhhhhHo....",
    ".....oHHHHo.....",
    "......oooo......",
    BLANK,
    BLANK,
];

const DROP: Shape = [
    BLANK,
    BLANK,
    ".......oo.......",
    "......olmo......",
    ".....olmmdo.....",
    ".....olmmdo.....",
    "....olmmmmdo....",
    "...olwmmmmmdo...",
    "...olwmmmmmdo...",
    "...olmmmmmmdo...",
    "....odmmmmdo....",
    ".....oddddo.....",
    "......oooo......",
    BLANK,
    BLANK,
    BLANK,
];

const SAPLING: Shape = [
    BLANK,
    "......oooo......",
    "....oolllmoo....",
    "...olmmlmmmdo...",
    "..olmmdmmmdmdo..",
    "..ommmmmdmmmdo..",
    "...odmmhmmddo...",
    "....oodhHdoo....",
    "......ohHo......",
    "......ohHo......",
    ".....oohHoo.....",
    "....omdhHdmo....",
    "......ohHo......",
    "......oooo......",
    BLANK,
    BLANK,
];

const GRASS: Shape = [
    BLANK,
    BLANK,
    BLANK,
    "..o.........o...",
    "..lo.......ol...",
    "..ml...o...lm...",
    "...m..ol..om....",
    "...ml.ml.lm..o..",
    "..o.mlmm.m..ol..",
    "..lo.mdm.mdolm..",
    "...m.mdmmdmomd..",
    "...mmdmdmdmmd...",
    "....mdmdmdmd....",
    "....dmddddmd....",
    BLANK,
    BLANK,
];

/// What an item's icon is drawn from.
enum Look {
    /// A shape in a material's palette, with an accent colour.
    Shape(&'static Shape, [u8; 3], [u8; 3]),
    /// A cube with the textures of a block (top, side).
    Block(usize),
    /// A cube with a procedural texture (pattern, colour).
    Cube(Pattern, [u8; 3]),
}

const WOOD: [u8; 3] = [160, 125, 70];
const STONE: [u8; 3] = [128, 128, 128];
const IRON: [u8; 3] = [214, 214, 214];
const GOLD: [u8; 3] = [250, 208, 50];
const DIAMOND: [u8; 3] = [80, 222, 212];
const RED: [u8; 3] = [200, 30, 30];
const BONE: [u8; 3] = [240, 235, 220];

/// The palette of a tool or armour tier.
fn material(tier: &str) -> [u8; 3] {
    match tier {
        "wooden" => WOOD,
        "stone" => STONE,
        "golden" | "gold" => GOLD,
        "diamond" => DIAMOND,
        _ => IRON,
    }
}

/// How item `name` (with its registry entry) looks.
fn look(item: ItemId) -> Look {
    let d = data();
    let def = d.item_def(item);
    let name = def.name.as_str();
    if let Some(t) = def.tool {
        let shape = match t.kind {
            ToolKind::Pickaxe => &PICKAXE,
            ToolKind::Axe => &AXE,
            ToolKind::Shovel => &SHOVEL,
            ToolKind::Hoe => &HOE,
            ToolKind::Sword => &SWORD,
            ToolKind::Shears | ToolKind::None => &SHEARS,
        };
        return Look::Shape(shape, material(t.tier), RED);
    }
    for (suffix, shape) in [
        ("_helmet", &HELMET),
        ("_chestplate", &CHESTPLATE),
        ("_leggings", &LEGGINGS),
        ("_boots", &BOOTS),
    ] {
        if let Some(tier) = name.strip_suffix(suffix) {
            return Look::Shape(shape, material(tier), RED);
        }
    }
    if let Some(tree) = name.strip_suffix("_sapling") {
        let leaves = d.block_id(&format!("{tree}_leaves"));
        let c = leaves.map_or([60, 140, 40], |l| d.block(l).color);
        return Look::Shape(&SAPLING, c, c);
    }
    let shape = |s: &'static Shape, c: [u8; 3]| Look::Shape(s, c, c);
    match name {
        "torch" => return Look::Shape(&TORCH, WOOD, [255, 200, 60]),
        "redstone_torch" => return Look::Shape(&TORCH, WOOD, [230, 20, 20]),
        "grass" => return shape(&GRASS, [90, 160, 50]),
        _ => {}
    }
    if let Some(bl) = def.places {
        return Look::Block(bl as usize);
    }
    match name {
        "stick" => shape(&STICK, WOOD),
        "coal" => shape(&LUMP, [52, 52, 52]),
        "charcoal" => shape(&LUMP, [84, 66, 46]),
        "iron_ingot" => shape(&INGOT, IRON),
        "gold_ingot" => shape(&INGOT, GOLD),
        "brick" => shape(&INGOT, [176, 86, 62]),
        "iron_nugget" => shape(&NUGGET, IRON),
        "gold_nugget" => shape(&NUGGET, GOLD),
        "diamond" => shape(&GEM, DIAMOND),
        "lapis_lazuli" => shape(&FLAKE, [44, 76, 196]),
        "redstone" => shape(&DUST, [214, 30, 22]),
        "flint" => shape(&SHARD, [72, 72, 78]),
        "clay_ball" => shape(&BALL, [160, 166, 179]),
        "snowball" => shape(&BALL, [236, 246, 250]),
        "wheat_seeds" => shape(&SEEDS, [110, 170, 60]),
        "leather" => shape(&HIDE, [160, 96, 52]),
        "white_wool" => Look::Cube(Pattern::Speckle, [234, 234, 234]),
        "feather" => Look::Shape(&FEATHER, [232, 232, 232], WOOD),
        "rotten_flesh" => Look::Shape(&STEAK, [112, 134, 70], [150, 92, 80]),
        "apple" => Look::Shape(&APPLE, [222, 32, 32], [70, 160, 40]),
        "beef" => Look::Shape(&STEAK, [204, 58, 52], BONE),
        "porkchop" => Look::Shape(&STEAK, [238, 150, 150], BONE),
        "mutton" => Look::Shape(&STEAK, [178, 48, 70], [232, 210, 190]),
        "cooked_beef" => Look::Shape(&STEAK, [112, 66, 40], [170, 130, 90]),
        "cooked_porkchop" => Look::Shape(&STEAK, [206, 150, 108], BONE),
        "cooked_mutton" => Look::Shape(&STEAK, [150, 92, 60], [222, 190, 150]),
        "chicken" => Look::Shape(&DRUMSTICK, [240, 200, 182], BONE),
        "cooked_chicken" => Look::Shape(&DRUMSTICK, [200, 130, 60], BONE),
        "bowl" => shape(&BOWL, WOOD),
        "ladder" => shape(&LADDER, WOOD),
        "bucket" => shape(&BUCKET, IRON),
        "hopper" => shape(&HOPPER, [82, 82, 86]),
        "rail" => Look::Shape(&RAIL, IRON, [150, 150, 150]),
        "activator_rail" => Look::Shape(&RAIL, IRON, RED),
        "tripwire_hook" => shape(&HOOK, IRON),
        "chain" => shape(&CHAIN, [64, 70, 88]),
        "iron_bars" => shape(&BARS, IRON),
        "compass" => Look::Shape(&COMPASS, IRON, RED),
        "shield" => Look::Shape(&SHIELD, WOOD, IRON),
        "green_dye" => shape(&DROP, [70, 140, 30]),
        "bone" => shape(&BONE_SHAPE, BONE),
        "arrow" => Look::Shape(&ARROW, [200, 200, 200], [232, 232, 232]),
        "string" => shape(&STRING, [236, 236, 236]),
        "spider_eye" => Look::Shape(&EYE, [150, 24, 44], [40, 10, 16]),
        "gunpowder" => shape(&DUST, [84, 84, 84]),
        "smithing_table" => Look::Cube(Pattern::Table, [58, 58, 70]),
        "stonecutter" => Look::Cube(Pattern::Layers, [142, 142, 142]),
        "smoker" => Look::Cube(Pattern::Furnace, [96, 80, 64]),
        "blast_furnace" => Look::Cube(Pattern::Furnace, [82, 82, 98]),
        "jukebox" => Look::Cube(Pattern::Table, [122, 76, 54]),
        "note_block" => Look::Cube(Pattern::Planks, [96, 60, 40]),
        "piston" => Look::Cube(Pattern::Layers, [164, 136, 90]),
        "dropper" => Look::Cube(Pattern::Furnace, [118, 118, 118]),
        // An item without a look of its own: a drop of a colour taken
        // from its name (the uniqueness test catches clashes).
        _ => {
            let h = unit(
                name.len() as u64,
                name.bytes().map(|x| x as i32).sum(),
                0,
                0,
            );
            shape(
                &DROP,
                [(80.0 + 170.0 * h) as u8, (200.0 - 120.0 * h) as u8, 140],
            )
        }
    }
}

fn mul(c: [u8; 3], f: f32, add: f32) -> [u8; 4] {
    let ch = |v: u8| (v as f32 * f + add).clamp(0.0, 255.0) as u8;
    [ch(c[0]), ch(c[1]), ch(c[2]), 255]
}

fn from_shape(shape: &Shape, base: [u8; 3], accent: [u8; 3]) -> Icon {
    let mut out = [[0u8; 4]; ICON * ICON];
    let white = |c: [u8; 3], k: f32| {
        let ch = |v: u8| (v as f32 + (255.0 - v as f32) * k) as u8;
        [ch(c[0]), ch(c[1]), ch(c[2]), 255]
    };
    for (y, row) in shape.iter().enumerate() {
        for (x, ch) in row.bytes().enumerate().take(ICON) {
            out[y * ICON + x] = match ch {
                b'o' => mul(base, 0.3, 0.0),
                b'd' => mul(base, 0.68, 0.0),
                b'm' => mul(base, 1.0, 0.0),
                b'l' => mul(base, 1.12, 18.0),
                b'w' => white(base, 0.65),
                b'h' => [150, 112, 62, 255],
                b'H' => [98, 72, 40, 255],
                b'x' => [accent[0], accent[1], accent[2], 255],
                _ => [0, 0, 0, 0],
            };
        }
    }
    out
}

/// A cube face in icon space: origin, the two edge vectors, the face
/// index (top, left, right) and its light.
type Face = ([f64; 2], [f64; 2], [f64; 2], usize, f32);

/// An isometric cube: the top face from `top`, the two side faces from
/// `side` (the left one lighter), 8×8 textures.
fn cube(top: &[[u8; 4]; TEX * TEX], side: &[[u8; 4]; TEX * TEX]) -> Icon {
    let mut out = [[0u8; 4]; ICON * ICON];
    for y in 0..ICON {
        for x in 0..ICON {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            // Corners: top (8, 0), left (0, 4), right (16, 4), centre
            // (8, 8), bottom left (0, 12), bottom right (16, 12), bottom
            // (8, 16). Each face is a parallelogram p = o + s·a + t·b.
            let faces: [Face; 3] = [
                ([0.0, 4.0], [8.0, -4.0], [8.0, 4.0], 0, 1.0),
                ([0.0, 4.0], [8.0, 4.0], [0.0, 8.0], 1, 0.82),
                ([8.0, 8.0], [8.0, -4.0], [0.0, 8.0], 2, 0.62),
            ];
            for (o, a, b, face, light) in faces {
                let (qx, qy) = (px - o[0], py - o[1]);
                let det = a[0] * b[1] - a[1] * b[0];
                let s = (qx * b[1] - qy * b[0]) / det;
                let t = (a[0] * qy - a[1] * qx) / det;
                if !(0.0..1.0).contains(&s) || !(0.0..1.0).contains(&t) {
                    continue;
                }
                let (u, v) = ((s * TEX as f64) as usize, (t * TEX as f64) as usize);
                let tex = if face == 0 { top } else { side };
                let c = tex[v.min(TEX - 1) * TEX + u.min(TEX - 1)];
                if c[3] != 0 {
                    out[y * ICON + x] = mul([c[0], c[1], c[2]], light, 0.0);
                }
                break;
            }
        }
    }
    out
}

fn build(item: ItemId) -> Icon {
    match look(item) {
        Look::Shape(s, base, accent) => from_shape(s, base, accent),
        Look::Block(bl) => {
            let t = textures();
            cube(&t.texels[bl * 3], &t.texels[bl * 3 + 1])
        }
        Look::Cube(p, c) => {
            let face = |f: usize| -> [[u8; 4]; TEX * TEX] {
                // A seed past the block ids keeps the speckle apart from
                // any block's.
                let seed = 1000 + c[0] as u32 * 7 + c[2] as u32;
                std::array::from_fn(|i| texel(seed, p, c, c, f, i % TEX, i / TEX))
            };
            cube(&face(0), &face(1))
        }
    }
}

/// The icon of `item`.
pub fn icon(item: ItemId) -> &'static Icon {
    static ICONS: OnceLock<Vec<Icon>> = OnceLock::new();
    let all = ICONS.get_or_init(|| {
        (0..data().items.len())
            .map(|i| build(i as ItemId))
            .collect()
    });
    &all[item as usize]
}

/// The mean colour of an icon's opaque pixels (for views too small to show
/// the icon itself), computed once per item.
pub fn mean_color(item: ItemId) -> [u8; 3] {
    static MEANS: OnceLock<Vec<[u8; 3]>> = OnceLock::new();
    let all = MEANS.get_or_init(|| {
        (0..data().items.len())
            .map(|i| {
                let (mut sum, mut n) = ([0u32; 3], 0u32);
                for p in icon(i as ItemId).iter().filter(|p| p[3] != 0) {
                    for k in 0..3 {
                        sum[k] += p[k] as u32;
                    }
                    n += 1;
                }
                let n = n.max(1);
                [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8]
            })
            .collect()
    });
    all[item as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_sixteen_by_sixteen() {
        let all: [&Shape; 39] = [
            &PICKAXE,
            &AXE,
            &SHOVEL,
            &HOE,
            &SWORD,
            &SHEARS,
            &INGOT,
            &NUGGET,
            &GEM,
            &FLAKE,
            &DUST,
            &LUMP,
            &SHARD,
            &BALL,
            &SEEDS,
            &HIDE,
            &FEATHER,
            &STEAK,
            &DRUMSTICK,
            &APPLE,
            &STICK,
            &HELMET,
            &CHESTPLATE,
            &LEGGINGS,
            &BOOTS,
            &BOWL,
            &LADDER,
            &BUCKET,
            &HOPPER,
            &RAIL,
            &HOOK,
            &CHAIN,
            &BARS,
            &TORCH,
            &COMPASS,
            &SHIELD,
            &DROP,
            &SAPLING,
            &GRASS,
        ];
        for (i, s) in all.iter().enumerate() {
            for (y, row) in s.iter().enumerate() {
                assert_eq!(row.len(), ICON, "shape {i} row {y}: {row:?}");
                assert!(
                    row.bytes().all(|c| b".odmlwhHx".contains(&c)),
                    "shape {i} row {y}: {row:?}"
                );
            }
        }
    }

    #[test]
    fn no_two_items_share_an_icon() {
        let d = data();
        let mut seen: std::collections::BTreeMap<Vec<u8>, &str> = Default::default();
        for (i, def) in d.items.iter().enumerate() {
            let ic = icon(i as ItemId);
            let opaque = ic.iter().filter(|p| p[3] != 0).count();
            assert!(opaque >= 12, "{} has an icon of {opaque} pixels", def.name);
            let bytes = ic.as_flattened().to_vec();
            if let Some(other) = seen.insert(bytes, &def.name) {
                panic!("{} and {other} share an icon", def.name);
            }
        }
        assert_eq!(seen.len(), d.items.len());
    }

    #[test]
    fn tools_of_one_tier_differ_in_shape_and_one_kind_differs_in_colour() {
        let d = data();
        let mask = |n: &str| -> Vec<bool> { icon(d.item(n)).iter().map(|p| p[3] != 0).collect() };
        // The stone axe and the stone pickaxe: different outlines.
        assert_ne!(mask("stone_axe"), mask("stone_pickaxe"));
        // One shape across tiers, told apart by the palette.
        assert_eq!(mask("stone_pickaxe"), mask("diamond_pickaxe"));
        assert_ne!(
            mean_color(d.item("stone_pickaxe")),
            mean_color(d.item("diamond_pickaxe"))
        );
        // A stick is not a log: the log is a cube, the stick a thin line.
        let stick = mask("stick").iter().filter(|&&b| b).count();
        let log = mask("oak_log").iter().filter(|&&b| b).count();
        assert!(stick < 60 && log > 150, "stick {stick} px, log {log} px");
    }
}
