//! Blocks, items, tags, recipes and smelting as data: the tables in
//! `registry/world/*.yaml`, embedded at build time and parsed once.
//!
//! Numeric ids follow the order of the YAML lists (block 0 is air). The block
//! constants in [`b`] name the ids the world generator and renderer use; a
//! unit test checks they match the table.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub type BlockId = u8;
pub type ItemId = u16;

const BLOCKS_YAML: &str = include_str!("../../../registry/world/blocks.yaml");
const ITEMS_YAML: &str = include_str!("../../../registry/world/items.yaml");
const RECIPES_YAML: &str = include_str!("../../../registry/world/recipes.yaml");

/// Block ids used by code (order of `blocks.yaml`).
pub mod b {
    use super::BlockId;
    pub const AIR: BlockId = 0;
    pub const STONE: BlockId = 1;
    pub const GRASS_BLOCK: BlockId = 2;
    pub const DIRT: BlockId = 3;
    pub const COBBLESTONE: BlockId = 4;
    pub const BEDROCK: BlockId = 5;
    pub const SAND: BlockId = 6;
    pub const GRAVEL: BlockId = 7;
    pub const WATER: BlockId = 8;
    pub const OAK_LOG: BlockId = 9;
    pub const BIRCH_LOG: BlockId = 10;
    pub const SPRUCE_LOG: BlockId = 11;
    pub const OAK_LEAVES: BlockId = 12;
    pub const BIRCH_LEAVES: BlockId = 13;
    pub const SPRUCE_LEAVES: BlockId = 14;
    pub const OAK_PLANKS: BlockId = 15;
    pub const COAL_ORE: BlockId = 18;
    pub const IRON_ORE: BlockId = 19;
    pub const GOLD_ORE: BlockId = 20;
    pub const DIAMOND_ORE: BlockId = 21;
    pub const REDSTONE_ORE: BlockId = 22;
    pub const LAPIS_ORE: BlockId = 23;
    pub const CRAFTING_TABLE: BlockId = 24;
    pub const FURNACE: BlockId = 25;
    pub const TORCH: BlockId = 27;
    pub const TALL_GRASS: BlockId = 28;
    pub const SNOW_BLOCK: BlockId = 29;
    pub const SANDSTONE: BlockId = 30;
    pub const LAVA: BlockId = 32;
    pub const CLAY: BlockId = 34;
    pub const CACTUS: BlockId = 35;
    /// Every named constant with its expected name (checked by a test).
    pub const NAMED: &[(BlockId, &str)] = &[
        (AIR, "air"),
        (STONE, "stone"),
        (GRASS_BLOCK, "grass_block"),
        (DIRT, "dirt"),
        (COBBLESTONE, "cobblestone"),
        (BEDROCK, "bedrock"),
        (SAND, "sand"),
        (GRAVEL, "gravel"),
        (WATER, "water"),
        (OAK_LOG, "oak_log"),
        (BIRCH_LOG, "birch_log"),
        (SPRUCE_LOG, "spruce_log"),
        (OAK_LEAVES, "oak_leaves"),
        (BIRCH_LEAVES, "birch_leaves"),
        (SPRUCE_LEAVES, "spruce_leaves"),
        (OAK_PLANKS, "oak_planks"),
        (COAL_ORE, "coal_ore"),
        (IRON_ORE, "iron_ore"),
        (GOLD_ORE, "gold_ore"),
        (DIAMOND_ORE, "diamond_ore"),
        (REDSTONE_ORE, "redstone_ore"),
        (LAPIS_ORE, "lapis_ore"),
        (CRAFTING_TABLE, "crafting_table"),
        (FURNACE, "furnace"),
        (TORCH, "torch"),
        (TALL_GRASS, "tall_grass"),
        (SNOW_BLOCK, "snow_block"),
        (SANDSTONE, "sandstone"),
        (LAVA, "lava"),
        (CLAY, "clay"),
        (CACTUS, "cactus"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    #[default]
    None,
    Pickaxe,
    Axe,
    Shovel,
    Hoe,
    Sword,
    Shears,
}

impl ToolKind {
    pub fn name(self) -> &'static str {
        match self {
            ToolKind::None => "none",
            ToolKind::Pickaxe => "pickaxe",
            ToolKind::Axe => "axe",
            ToolKind::Shovel => "shovel",
            ToolKind::Hoe => "hoe",
            ToolKind::Sword => "sword",
            ToolKind::Shears => "shears",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    #[default]
    None,
    Speckle,
    Grass,
    Cobble,
    Water,
    Log,
    Leaves,
    Planks,
    Ore,
    Table,
    Furnace,
    Torch,
    Plant,
    Layers,
    Glass,
}

#[derive(Clone, Debug)]
pub struct DropDef {
    pub item: ItemId,
    /// Base count, plus up to `extra` more (uniform).
    pub count: u8,
    pub extra: u8,
    pub chance: f32,
}

#[derive(Clone, Debug)]
pub struct BlockDef {
    pub name: String,
    pub hardness: f32,
    pub tool: ToolKind,
    pub level: i8,
    pub drops: Vec<DropDef>,
    pub shears: Vec<DropDef>,
    pub solid: bool,
    pub transparent: bool,
    pub color: [u8; 3],
    pub ore_color: [u8; 3],
    pub pattern: Pattern,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolDef {
    pub kind: ToolKind,
    pub tier: &'static str,
    pub speed: f32,
    pub level: i8,
    pub uses: u16,
}

#[derive(Clone, Debug)]
pub struct ItemDef {
    pub name: String,
    pub stack: u8,
    pub places: Option<BlockId>,
    pub tool: Option<ToolDef>,
    pub food: u8,
    pub fuel: u32,
    pub armor: u8,
}

/// One ingredient: a single item or any item of a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ingredient {
    /// As written in the table (`cobblestone`, `#planks`).
    pub name: String,
    pub options: Vec<ItemId>,
}

impl Ingredient {
    pub fn accepts(&self, item: ItemId) -> bool {
        self.options.contains(&item)
    }
}

#[derive(Clone, Debug)]
pub struct Recipe {
    pub out: ItemId,
    pub count: u8,
    /// Shaped recipes: `width × height` cells, row-major; `None` = empty.
    pub shape: Option<(usize, usize, Vec<Option<Ingredient>>)>,
    /// Shapeless recipes: the ingredients (one item each).
    pub ingredients: Vec<Ingredient>,
    /// Larger than 2×2: needs a crafting table within reach.
    pub needs_table: bool,
}

impl Recipe {
    /// Ingredients with how many items of each the recipe consumes, grouped
    /// by identical ingredient, in first-appearance order.
    pub fn needs(&self) -> Vec<(Ingredient, u32)> {
        let mut out: Vec<(Ingredient, u32)> = Vec::new();
        let cells: Vec<&Ingredient> = match &self.shape {
            Some((_, _, cells)) => cells.iter().flatten().collect(),
            None => self.ingredients.iter().collect(),
        };
        for ing in cells {
            match out.iter_mut().find(|(i, _)| i == ing) {
                Some((_, n)) => *n += 1,
                None => out.push((ing.clone(), 1)),
            }
        }
        out
    }
}

#[derive(Clone, Debug)]
pub struct SmeltDef {
    pub input: Ingredient,
    pub out: ItemId,
    pub ticks: u32,
}

/// All world tables.
#[derive(Debug)]
pub struct Data {
    pub blocks: Vec<BlockDef>,
    pub items: Vec<ItemDef>,
    pub tags: BTreeMap<String, Vec<ItemId>>,
    pub recipes: Vec<Recipe>,
    pub smelting: Vec<SmeltDef>,
    block_index: BTreeMap<String, BlockId>,
    item_index: BTreeMap<String, ItemId>,
    /// For each block, the item of the same name (what it is as an item).
    pub block_item: Vec<Option<ItemId>>,
}

// ---- raw YAML shapes ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDrop {
    item: String,
    #[serde(default = "one")]
    count: u8,
    #[serde(default)]
    extra: u8,
    #[serde(default = "onef")]
    chance: f32,
}
fn one() -> u8 {
    1
}
fn onef() -> f32 {
    1.0
}
fn yes() -> bool {
    true
}
fn stack64() -> u8 {
    64
}
fn minus_one() -> i8 {
    -1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlock {
    name: String,
    hardness: f32,
    #[serde(default)]
    tool: ToolKind,
    #[serde(default = "minus_one")]
    level: i8,
    #[serde(default)]
    drops: Vec<RawDrop>,
    #[serde(default)]
    shears: Vec<RawDrop>,
    #[serde(default = "yes")]
    solid: bool,
    #[serde(default)]
    transparent: bool,
    color: [u8; 3],
    #[serde(default)]
    ore_color: Option<[u8; 3]>,
    #[serde(default)]
    pattern: Pattern,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlocks {
    blocks: Vec<RawBlock>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTool {
    kind: ToolKind,
    tier: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTier {
    speed: f32,
    level: i8,
    uses: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    name: String,
    #[serde(default = "stack64")]
    stack: u8,
    #[serde(default)]
    places: Option<String>,
    #[serde(default)]
    tool: Option<RawTool>,
    #[serde(default)]
    food: u8,
    #[serde(default)]
    fuel: u32,
    #[serde(default)]
    armor: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItems {
    tags: BTreeMap<String, Vec<String>>,
    tiers: BTreeMap<String, RawTier>,
    items: Vec<RawItem>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    out: String,
    #[serde(default = "one")]
    count: u8,
    #[serde(default)]
    shape: Option<Vec<String>>,
    #[serde(default)]
    keys: BTreeMap<String, String>,
    #[serde(default)]
    ingredients: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSmelt {
    input: String,
    out: String,
    ticks: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipes {
    crafting: Vec<RawRecipe>,
    smelting: Vec<RawSmelt>,
}

/// Tier names live for the program's life (the table is parsed once).
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl Data {
    /// Parse and cross-check the three tables. Errors name the file and entry.
    pub fn parse(blocks: &str, items: &str, recipes: &str) -> Result<Data, String> {
        let rb: RawBlocks =
            serde_saphyr::from_str(blocks).map_err(|e| format!("blocks.yaml: {e}"))?;
        let ri: RawItems = serde_saphyr::from_str(items).map_err(|e| format!("items.yaml: {e}"))?;
        let rr: RawRecipes =
            serde_saphyr::from_str(recipes).map_err(|e| format!("recipes.yaml: {e}"))?;
        if rb.blocks.len() > 255 || rb.blocks.first().map(|b| b.name.as_str()) != Some("air") {
            return Err(
                "blocks.yaml: the first block must be air and there may be at most 255".into(),
            );
        }
        let mut item_index = BTreeMap::new();
        for (i, it) in ri.items.iter().enumerate() {
            if item_index.insert(it.name.clone(), i as ItemId).is_some() {
                return Err(format!("items.yaml: item {} is listed twice", it.name));
            }
        }
        let mut block_index = BTreeMap::new();
        for (i, bl) in rb.blocks.iter().enumerate() {
            if block_index.insert(bl.name.clone(), i as BlockId).is_some() {
                return Err(format!("blocks.yaml: block {} is listed twice", bl.name));
            }
        }
        let item = |name: &str, ctx: &str| -> Result<ItemId, String> {
            item_index
                .get(name)
                .copied()
                .ok_or_else(|| format!("{ctx}: unknown item \"{name}\" (add it to items.yaml)"))
        };
        let drops = |raw: &[RawDrop], ctx: &str| -> Result<Vec<DropDef>, String> {
            raw.iter()
                .map(|d| {
                    Ok(DropDef {
                        item: item(&d.item, ctx)?,
                        count: d.count,
                        extra: d.extra,
                        chance: d.chance,
                    })
                })
                .collect()
        };
        let mut out_blocks = Vec::new();
        for bl in &rb.blocks {
            let ctx = format!("blocks.yaml: block {}", bl.name);
            out_blocks.push(BlockDef {
                name: bl.name.clone(),
                hardness: bl.hardness,
                tool: bl.tool,
                level: bl.level,
                drops: drops(&bl.drops, &ctx)?,
                shears: drops(&bl.shears, &ctx)?,
                solid: bl.solid,
                transparent: bl.transparent,
                color: bl.color,
                ore_color: bl.ore_color.unwrap_or(bl.color),
                pattern: bl.pattern,
            });
        }
        let mut tags = BTreeMap::new();
        for (t, names) in &ri.tags {
            let ids = names
                .iter()
                .map(|n| item(n, &format!("items.yaml: tag {t}")))
                .collect::<Result<Vec<_>, _>>()?;
            tags.insert(t.clone(), ids);
        }
        let mut out_items = Vec::new();
        for it in &ri.items {
            let ctx = format!("items.yaml: item {}", it.name);
            let places = match &it.places {
                Some(p) => Some(
                    *block_index
                        .get(p)
                        .ok_or_else(|| format!("{ctx}: places unknown block \"{p}\""))?,
                ),
                None => None,
            };
            let tool = match &it.tool {
                Some(t) => {
                    let tier = ri
                        .tiers
                        .get(&t.tier)
                        .ok_or_else(|| format!("{ctx}: unknown tier \"{}\"", t.tier))?;
                    Some(ToolDef {
                        kind: t.kind,
                        tier: leak(&t.tier),
                        speed: tier.speed,
                        level: tier.level,
                        uses: tier.uses,
                    })
                }
                None => None,
            };
            if it.stack == 0 {
                return Err(format!("{ctx}: stack must be at least 1"));
            }
            out_items.push(ItemDef {
                name: it.name.clone(),
                stack: it.stack,
                places,
                tool,
                food: it.food,
                fuel: it.fuel,
                armor: it.armor,
            });
        }
        let ingredient = |name: &str, ctx: &str| -> Result<Ingredient, String> {
            let options = match name.strip_prefix('#') {
                Some(tag) => tags
                    .get(tag)
                    .cloned()
                    .ok_or_else(|| format!("{ctx}: unknown tag \"{name}\""))?,
                None => vec![item(name, ctx)?],
            };
            Ok(Ingredient {
                name: name.to_string(),
                options,
            })
        };
        let mut out_recipes = Vec::new();
        for r in &rr.crafting {
            let ctx = format!("recipes.yaml: recipe for {}", r.out);
            let out = item(&r.out, &ctx)?;
            if r.count == 0 {
                return Err(format!("{ctx}: count must be at least 1"));
            }
            let (shape, ingredients, needs_table) = match (&r.shape, r.ingredients.is_empty()) {
                (Some(rows), true) => {
                    let h = rows.len();
                    let w = rows.iter().map(|s| s.chars().count()).max().unwrap_or(0);
                    if !(1..=3).contains(&h) || !(1..=3).contains(&w) {
                        return Err(format!("{ctx}: a shape has 1 to 3 rows of 1 to 3 cells"));
                    }
                    let mut cells = Vec::new();
                    for row in rows {
                        let chars: Vec<char> = row.chars().collect();
                        for x in 0..w {
                            let c = chars.get(x).copied().unwrap_or(' ');
                            if c == ' ' {
                                cells.push(None);
                            } else {
                                let key = r.keys.get(&c.to_string()).ok_or_else(|| {
                                    format!("{ctx}: shape letter '{c}' has no entry in keys")
                                })?;
                                cells.push(Some(ingredient(key, &ctx)?));
                            }
                        }
                    }
                    if cells.iter().all(Option::is_none) {
                        return Err(format!("{ctx}: the shape is empty"));
                    }
                    (Some((w, h, cells)), Vec::new(), w > 2 || h > 2)
                }
                (None, false) => {
                    let ings = r
                        .ingredients
                        .iter()
                        .map(|n| ingredient(n, &ctx))
                        .collect::<Result<Vec<_>, _>>()?;
                    if ings.len() > 9 {
                        return Err(format!("{ctx}: at most 9 ingredients"));
                    }
                    let big = ings.len() > 4;
                    (None, ings, big)
                }
                _ => {
                    return Err(format!(
                        "{ctx}: give either `shape` with `keys` or `ingredients`, not both or neither"
                    ));
                }
            };
            out_recipes.push(Recipe {
                out,
                count: r.count,
                shape,
                ingredients,
                needs_table,
            });
        }
        let mut smelting = Vec::new();
        for s in &rr.smelting {
            let ctx = format!("recipes.yaml: smelting {}", s.input);
            smelting.push(SmeltDef {
                input: ingredient(&s.input, &ctx)?,
                out: item(&s.out, &ctx)?,
                ticks: s.ticks.max(1),
            });
        }
        let block_item = out_blocks
            .iter()
            .map(|bl| item_index.get(&bl.name).copied())
            .collect();
        Ok(Data {
            blocks: out_blocks,
            items: out_items,
            tags,
            recipes: out_recipes,
            smelting,
            block_index,
            item_index,
            block_item,
        })
    }

    pub fn block_id(&self, name: &str) -> Option<BlockId> {
        self.block_index.get(name).copied()
    }

    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.item_index.get(name).copied()
    }

    /// Item id by name; panics on a name the tables lack (code constants only).
    pub fn item(&self, name: &str) -> ItemId {
        self.item_id(name)
            .unwrap_or_else(|| panic!("item {name} is missing from items.yaml"))
    }

    pub fn block(&self, id: BlockId) -> &BlockDef {
        &self.blocks[id as usize]
    }

    pub fn item_def(&self, id: ItemId) -> &ItemDef {
        &self.items[id as usize]
    }

    pub fn item_name(&self, id: ItemId) -> &str {
        &self.items[id as usize].name
    }

    pub fn block_name(&self, id: BlockId) -> &str {
        &self.blocks[id as usize].name
    }

    pub fn recipes_for(&self, item: ItemId) -> impl Iterator<Item = &Recipe> {
        self.recipes.iter().filter(move |r| r.out == item)
    }

    pub fn smelt_for(&self, out: ItemId) -> impl Iterator<Item = &SmeltDef> {
        self.smelting.iter().filter(move |s| s.out == out)
    }

    /// Items in a tag (`logs`, `planks`, …); empty for an unknown tag.
    pub fn tag(&self, tag: &str) -> &[ItemId] {
        self.tags.get(tag).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The world tables, parsed on first use.
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        Data::parse(BLOCKS_YAML, ITEMS_YAML, RECIPES_YAML)
            .unwrap_or_else(|e| panic!("registry/world tables are invalid: {e}"))
    })
}
