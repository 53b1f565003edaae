"""The vendor's phrasings of error-table rows (and usage notes), each a named pattern, in the order
``patterns.match`` tries them. The phrasings come from reading the error tables of hicann/ops-nn and
hicann/ops-math (e.g. 空指针, 的数据类型不在支持的范围之内, 无法做broadcast).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from conformance.draft import attr_shape_phrasings as attr_shape
from conformance.draft import axis_phrasings as axes
from conformance.draft import bmm_phrasings as bmm
from conformance.draft import channel_phrasings as chan
from conformance.draft import count_phrasings as counts
from conformance.draft import dim_range_phrasings as dr
from conformance.draft import index_phrasings as ix
from conformance.draft import insert_phrasings as inserts
from conformance.draft import letter_phrasings as letters
from conformance.draft import matmul_phrasings as mm
from conformance.draft import numel_phrasings as numel
from conformance.draft import phrasings as ph
from conformance.draft import promotion_phrasings as prom
from conformance.draft import reduced_part_phrasings as parts
from conformance.draft import spatial_phrasings as spatial
from conformance.draft.dim_phrasings import (
    DIM_TIE,
    EMPTY_AXIS,
    KEEP_SHAPE,
    NOT_IDENTICAL,
    PAD_LIMIT,
    PAD_SHAPE,
    RANK_COMPARE,
    RANK_OR_RANKS,
    RANK_OR_SHAPE,
    SAME_RANK,
    SHAPE_WITH,
    VAGUE_SHAPE,
    ZERO_DIM,
    dim_tie_limits,
    keep_shape_limits,
    pad_limit_limits,
    pad_shape_limits,
    rank_compare_limits,
    rank_part_limits,
    same_rank_limits,
)
from conformance.draft.dtype_phrasings import DTYPE_WITH, ONE_DTYPE, one_dtype_limits
from conformance.draft.kernel_pads import KERNEL_PAD, kernel_pad_limits
from conformance.draft.norm_phrasings import NORM_SHAPE, norm_limits
from conformance.draft.rank_parts import rank_parts_limits
from conformance.draft.sentence_limits import (
    CAST,
    LENGTH,
    LENGTHS,
    RANK_TABLE,
    SIGN,
    Limits,
    broadcast_result,
    cast_limits,
    length_limits,
    rank_limits,
    rx,
    sign_limits,
    value_limits,
)
from conformance.draft.words import DIFFER, NAME, NTH_DIM, OR


@dataclass(frozen=True)
class Pattern:
    name: str
    kinds: tuple[str, ...]  # the clause kinds a match yields; () for a row read but not a clause
    regex: re.Pattern[str]
    keywords: tuple[str, ...]  # what closest() looks for
    example: str  # a typical phrasing (closest() breaks ties with it)
    exclude: re.Pattern[str] | None = None
    limits: Callable[[str], Limits | None] = field(default=lambda text: {})  # None: no match
    conditional: bool = False  # reads a sentence stating a condition ("…时"): its regex says it whole


# -- the patterns, in the order they are tried (the first that matches reads the sentence) --------
PATTERNS: tuple[Pattern, ...] = (
    Pattern("reduced shape", ("shape_note",), KEEP_SHAPE, ("keepdim", ".shape", "!="),
            "keepdim为true时，out.shape != self.shape(指定维度dim设置为1的形状)。", limits=keep_shape_limits,
            conditional=True),
    Pattern("reduced part", ("reduced_part",), parts.REDUCED_PART, ("keepDim", "维度", "除dim外"),
            "keepDim为true时，out的shape在dim上的size不为1。", limits=parts.reduced_part_limits,
            conditional=True),
    Pattern("empty reduced axis", ("empty_axis",), EMPTY_AXIS, ("reduce", "维度", "为0", "空轴"),
            "self中需要reduce的维度size为0。"),
    Pattern("dtype promotion or cast", ("promotable", "castable"), prom.PROMOTE_OR_CAST,
            ("推导失败", "转为", "或"), "self与other类型推导失败，或推导类型无法转为out的数据类型。",
            limits=prom.promote_or_cast_limits),
    Pattern("dtype promotion", ("promotable",), prom.PROMOTE, ("推导", "数据类型", "规则"),
            "self和other无法做数据类型推导。", exclude=prom.PROMOTE_EXCLUDE),
    Pattern("dtype cast", ("castable",), rx("|".join(r.pattern for r in CAST)),
            ("转换", "数据类型", "输出"),
            "推导出的数据类型无法转换为指定输出out的类型。", exclude=rx(r"或|格式|维度|shape"),
            limits=cast_limits),
    Pattern("platform not supported", ("product_in",),
            rx(r"(?:平台|产品型号|芯片|型号|soc).{0,10}不(?:在|支持|被支持)|不支持.{0,6}(?:平台|产品|芯片)"),
            ("平台", "产品", "芯片", "型号"), "当前平台不在支持的平台范围内。"),
    Pattern("null pointer", ("not_null",), rx(r"空指针|nullptr|null\b"),
            ("空指针",), "传入的self、other或out是空指针。",
            exclude=rx(r"不为空指针时|非空指针时|不是nullptr|不为nullptr|空tensor|空Tensor"
                       r"|不为空指针|不是空指针|非空指针且|非空但|存在时[，,]")),  # (given: another rule)
    Pattern("channel axis", ("channel",), chan.CHANNEL, ("channel轴", "C轴", "通道"),
            "mean的shape与input的channel轴不一致。", limits=chan.channel_limits),
    Pattern("rank or channel axis", ("channel",), chan.RANK_OR_CHANNEL, ("维度", "C轴", "或者"),
            "weight/bias维度不为1维，或者shape不等于input C轴的长度。", limits=chan.rank_or_channel_limits),
    Pattern("empty by some dims", ("empty_dims",), ph.EMPTY_DIMS, ("空tensor", "存在", "维度"),
            "self为空tensor且存在非第一维度的值为0。", limits=ph.empty_dims_limits, conditional=True),
    Pattern("empty tensor", ("not_empty",), ph.NOT_EMPTY, ("空tensor", "空Tensor", "为空"),
            "self是空tensor。"),
    Pattern("dtype and format not supported", ("dtype_in", "format_in"),
            rx(r"数据类型(?:和|或|、|与|以及)数据格式.{0,8}不(?:在|符合|满足|属于)|数据类型、数据格式"
                r"(?:不在|不符合)"),
            ("数据类型", "数据格式", "支持"), "self和out的数据类型和数据格式不在支持的范围之内。"),
    Pattern("one dtype", ("dtype_in",), ONE_DTYPE, ("数据类型", "不为", "类型"),
            "indicesOut的数据类型不为INT64。", limits=one_dtype_limits),  # (table_clauses: as listed only)
    Pattern("dtype not supported", ("dtype_in",),
            rx(r"(?:数据类型|dtype).{0,10}不(?:在|属于|符合|满足)?.{0,6}(?:支持|允许)|不(?:在|属于|是)?(?:支持|允许)的"
                r"(?:数据类型|dtype)|数据类型不是[A-Z]|数据类型非法|不支持.{0,12}数据类型"),
            ("数据类型", "支持", "范围"), "self的数据类型不在支持的范围之内。",
            exclude=rx(r"推导|转换|一致|相同|不同|组合")),  # (a combination is no list per tensor)
    # "self为非连续张量", "mxscale不支持非连续的Tensor", "srcTensor、dstTensor传入非连续的Tensor"
    Pattern("non-contiguous", ("contiguous",),
            rx(r"(?:为|是|传入了?|使用了?|不支持)\s*非连续的?\s*(?:Tensor|tensor|张量)[。.]?$"),
            ("非连续", "Tensor", "张量"), "self为非连续张量。"),
    Pattern("format not supported", ("format_in",),
            rx(r"(?:数据格式|format).{0,10}不(?:在|属于|符合)?.{0,6}支持|不支持.{0,10}(?:数据格式|format)"),
            ("数据格式", "format", "支持"), "self的数据格式不在支持的范围之内。"),
    Pattern("dtypes differ", ("same_dtype",),
            rx(rf"(?:数据类型|type).{{0,12}}{DIFFER}|数据类型不与.{{0,30}}(?:一致|相同)|{DTYPE_WITH}"),
            ("数据类型", "一致", "不同"), "self和other的数据类型不一致。",
            exclude=rx(r"推导|转换|取值")),
    Pattern("formats differ", ("same_format",), rx(rf"(?:数据格式|format).{{0,12}}{DIFFER}"),
            ("格式不一致", "格式不同", "数据格式"), "self和out的数据格式不一致。",
            exclude=rx(r"数据类型|shape|维度")),
    # "selfRef和mask的shape无法做broadcast，或selfRef的shape不等于二者broadcast后的shape"
    Pattern("cannot broadcast or shape differs", ("broadcastable", "expr"),
            rx(rf"^{NAME}\s*(?:和|与|、)\s*{NAME}\s*的\s*shape\s*(?:无法|不能)\s*做?\s*broadcast{OR}"
               rf"{NAME}\s*的\s*shape\s*不等于\s*二者\s*broadcast\s*(?:后|之后)的\s*shape\s*[。.]?$"),
            ("无法做broadcast", "二者broadcast后"),
            "selfRef和mask的shape无法做broadcast，或selfRef的shape不等于二者broadcast后的shape。",
            limits=broadcast_result),
    Pattern("broadcast shape differs", ("expr",),
            rx(rf"broadcast.{{0,16}}(?:shape|结果|形状).{{0,16}}{DIFFER}|shape.{{0,4}}不是.{{0,40}}broadcast"
                r"|broadcast\s*(?:到|至|成)"),
            ("broadcast", "shape", "后", "不一致"), "self和other做broadcast后的shape与out的shape不一致。",
            exclude=rx(r"不满足broadcast|无法做broadcast|无法进行broadcast|@|乘"),
            limits=broadcast_result),
    Pattern("cannot broadcast", ("broadcastable",),
            rx(r"(?:无法|不能|不可以|不可|不满足|不支持)[^，。]{0,24}broadcast|broadcast.{0,8}(?:失败|不满足|不成立)"),
            ("broadcast", "无法", "满足"), "self和other的shape无法做broadcast。",
            exclude=rx(rf"@|乘|{NTH_DIM}")),  # ("第一维度不相等或不能做broadcast": a dimension's)
    Pattern("vague shape", ("shape_note",), VAGUE_SHAPE, ("shape", "不满足", "约束"),
            "x与out的shape不满足约束。"),  # shape_notes.py: the relation the usage notes state
    Pattern("shapes differ", ("same_shape",),
            rx(rf"(?:shape|形状|数据形状).{{0,8}}{DIFFER}|{NOT_IDENTICAL.pattern}|{SHAPE_WITH.pattern}"),
            ("shape", "不一致", "不同"), "self和out的shape不一致。",
            # not equal shapes (each read so made false findings): "根据最大池化语义计算的output shape与
            # 指定shape不一致", "out的shape不等于self根据dim拆分后的shape" (a shape computed from another);
            # "x、scale、out的shape与参数说明中不一致", "多个输入tensor之间的shape信息不匹配" (each its
            # own); "gradOutput、self和out的shape不匹配" (three or more "not matching": compatible, as
            # a pooled gradOutput is with self; two, "self和out的shape不匹配", are equal)
            exclude=rx(r"broadcast|维|元素|size|轴|长度|推导|@|乘|根据|语义|拆分|参数说明|接口要求|信息|"
                       r"、[^。]*不匹配")),
    Pattern("dimension range by letter", ("dim_range",), dr.LETTER_RANGE, ("[-N", "N-1", "N表示"),
            "dims超过[-N, N-1] (N表示self的维度)。", limits=dr.letter_range_limits),
    Pattern("dimension out of its range", ("dim_range",), dr.DOCUMENTED, ("指定的维度", "合法范围"),
            "dim指定的维度不在合法范围内。", limits=lambda text: {"documented": True}),
    Pattern("dimension range or rank", ("dim_range", "rank_in"), dr.ABS_OR_RANK, ("绝对值", "最大值", "维"),
            "dim的绝对值超出self的dim最大值或超出8维。", limits=dr.abs_or_rank_limits),
    Pattern("dimension range or duplicates", ("dim_range", "distinct"), dr.RANGE_OR_REPEAT, ("越界", "重复"),
            "axes中有值的取值越界，不在[-x.dim(), x.dim()-1]，或表示的轴有重复。",
            limits=dr.dim_range_limits),
    Pattern("dimension range", ("dim_range",),
            rx(r"(?:维度|维)\s*(?:数量|数|大小)?\s*(?:的|可选)?\s*(?:合法|有效|取值)?\s*范围|维度范围|\.dim\s*\(?|"
                r"(?:超出|越界|不在).{0,8}维度|"
                # "[-selfRef的维度数量, selfRef的维度数量-1]", "[-rank, rank-1]": the whole range written
                r"\[\s*-\s*([A-Za-z_]\w*)\s*的\s*(维度数量|维度数|维数)\s*[,，]\s*\1\s*的\s*\2\s*-\s*1\s*\]|"
                r"\[\s*-\s*rank\s*[,，]\s*rank\s*-\s*1\s*\]"),
            ("dim", "维度范围", "取值", "[-"), "dim的取值不在[-self.dim(), self.dim()-1]范围内。",
            # "dims数组中元素超出输入tensor的维度范围" is each element's range, other arrays not
            # ("selfRef的维度范围超过8", "shape大小超出最大维度限制": the tensor's rank)
            exclude=rx(r"数组(?!中(?:的维度|元素)超出)|重复|整除|size|(?<!数组中)元素|维度范围超过\s*\d|"
                       r"最大维度限制"),
            limits=dr.dim_range_limits),
    Pattern("element sign", ("sign",), ph.ELEMENT_SIGN, ("存在", "小于等于0", "数值中"),
            "kernelSize中存在小于等于0的数值。", limits=ph.element_sign_limits),
    Pattern("value interval", ("interval", "value_in"), ph.INTERVAL, ("之间", "超出范围", "不在"),
            "p的值不在0和1之间。", limits=ph.interval_limits),
    Pattern("attribute order", ("order",), ph.ORDER, ("大于", "小于"), "quantMin大于quantMax。",
            limits=ph.order_limits),
    Pattern("duplicates", ("distinct",), ph.DUPLICATES, ("重复",), "dims数组中元素重复。"),
    Pattern("single value", ("value_in", "elements_equal"), ph.SINGLE_VALUE, ("不为", "不等于"),
            "dilation的数值不等于1。", limits=ph.single_value_limits),
    Pattern("zero value", ("nonzero",), ph.ZERO_VALUE, ("等于0", "为0"), "alpha等于0。"),
    Pattern("attribute out of its range", ("value_in", "dim_range"), ph.OUT_OF_RANGE, ("越界", "取值范围"),
            "dim不在指定的取值范围内。", limits=lambda text: {"enumerated": True, "documented": True}),
    Pattern("padding limit", ("pad_limit",), PAD_LIMIT, ("padding", "数值", "大于等于", "维度"),
            "padding的数值大于等于self对应维度的值。", limits=pad_limit_limits),
    Pattern("padding within the kernel", ("kernel_pad",), KERNEL_PAD, ("padding", "kernelSize", "1/2"),
            "padding的数值中存在小于0或者大于kernelSize/2的值。", limits=kernel_pad_limits),
    Pattern("padded shape", ("pad_shape",), PAD_SHAPE, ("加", "padding", "正向传播"),
            "out后两维度的值不等于self后两维度的值加对应padding。", limits=pad_shape_limits),
    Pattern("rank comparison", ("rank_compare",), RANK_COMPARE, ("维度", "小于", "大于", "个数"),
            "input的维度小于normalizedShape的维度。", limits=rank_compare_limits),
    Pattern("tensor list count", ("list_count",), ph.LIST_COUNT, ("Tensor数量", "不一致", "元素个数"),
            "x1、x2的Tensor数量不一致。", limits=ph.list_count_limits),
    Pattern("normalized shape", ("norm_shape",), NORM_SHAPE, ("右对齐", "乘积", "normalizedShape"),
            "input的shape与normalizedShape右对齐时对应维度shape不相等。", limits=norm_limits),
    Pattern("dimensions' ranges", ("axis_limit",), axes.AXIS_LIMITS, ("第一维度", "超出", "范围"),
            "x的第一维度超出范围[1, 64]，或者第二维度超出[1, 8]。", limits=axes.axis_limits),
    Pattern("rank or dimensions tied", ("rank_in", "axis_limit"), axes.RANK_AND_TIES,
            ("维度", "第一维度", "不一致"),
            "w的维度不为2，或者第一维度和第二维度与x的第二维度不一致。", limits=axes.rank_and_ties),
    Pattern("dimension tie", ("dim_tie",), DIM_TIE, ("最后一维", "倒数第二维", "尾轴", "不相等"),
            "batch1的最后一维和batch2的倒数第二维不相等。", limits=dim_tie_limits),
    Pattern("batched product", ("bmm_tie",), bmm.BMM_TIE, ("@", "broadcast", "第一维度", "同时为空"),
            "self不能与batch1@batch2做broadcast操作。", limits=bmm.bmm_limits),
    Pattern("matrix product", ("dim_tie",), mm.MATMUL, ("相乘", "矩阵乘", "条件"),
            "mat1和mat2不满足相乘条件。", limits=mm.matmul_limits),
    Pattern("outer product shape", ("outer",), mm.OUTER, ("外积", "扩展"),
            "self不能扩展成为vec1和vec2的外积结果形状。", limits=mm.outer_limits),
    Pattern("matrix product shape", ("product_shape",), mm.PRODUCT_SHAPE, ("@", "shape", "不一致"),
            "out和mat1@mat2 shape不一致。", limits=mm.product_limits),
    Pattern("rank or shapes differ", ("rank_in", "same_shape"), RANK_OR_SHAPE, ("shape", "维", "不一致"),
            "self和out的shape超过8维，或者两者shape不一致。", limits=rank_part_limits(RANK_OR_SHAPE)),
    Pattern("rank or ranks differ", ("rank_in", "same_rank"), RANK_OR_RANKS, ("维度", "超过", "不一致"),
            "x、y维度超过8维或不一致。", limits=rank_part_limits(RANK_OR_RANKS)),
    Pattern("same rank", ("same_rank",), SAME_RANK, ("维度数", "维数", "不一致"),
            "self、index的维度数不一致。", limits=same_rank_limits),
    Pattern("zero dimension", ("not_empty",), ZERO_DIM, ("任意", "维度", "等于0"),
            "（x1、gamma）的任意一个维度等于0。"),
    Pattern("spatial sizes", ("spatial_tie",), spatial.SPATIAL_TIE, ("outputSize", "H、W", "乘积"),
            "out在H、W维度上的size大小与outputSize中的两个元素值不相等。", limits=spatial.spatial_limits,
            conditional=True),  # (its regex says the whole sentence: "当self为4维时，…")
    Pattern("count along a dimension", ("count_tie",), counts.COUNT_TIE,
            ("numsamples", "最后一个维度", "size大小"),
            "k小于0或者k大于输入self在dim维度上的size大小。", limits=counts.count_limits,
            conditional=True),  # (its regex says the whole sentence: "当self为2维Tensor时，…")
    Pattern("inserted dimension", ("insert_tie",), inserts.INSERT_TIE, ("插入", "多1维", "空Tensor"),
            "out的shape与在self的shape在axis轴插入numClasses后的shape不一致。", limits=inserts.insert_limits,
            conditional=True),  # (its regex says the whole sentence: "self为空Tensor，且…")
    Pattern("layout letters", ("letter_tie",), letters.LETTER_TIE, ("N*C*HxW", "整除", "维度上的空间大小"),
            "self在C维度上的空间大小不等于C。", limits=letters.letter_limits,
            conditional=True),  # (its regex says the whole sentence: "(self为二维时，HxW需要为1)")
    Pattern("shape of attributes", ("attr_shape",), attr_shape.ATTR_SHAPE, ("shape", "不为", "("),
            "out的shape不为(n，m)。", limits=attr_shape.attr_shape_limits),
    Pattern("ranks of several tensors", ("rank_in",), rx(r"维"), ("维度", "不为", "，"),
            "vec1和vec2维度不为1，self维度超过2。", limits=rank_parts_limits),
    Pattern("rank", ("rank_in",), rx(rf"维|\dD\b|rank|shape\s*dim|{RANK_TABLE.pattern}"),
            ("维", "超过", "大于", "8"), "self的维度超过8维。", limits=rank_limits),
    Pattern("lengths differ", ("same_length",), ph.SAME_LENGTH, ("长度", "元素个数", "不一致"),
            "begin和end的长度不一致。"),
    Pattern("same element count", ("numel_tie",), numel.SAME_NUMEL, ("元素数量", "元素个数", "不等"),
            "source和index的元素数量不等。", limits=numel.same_numel_limits),
    Pattern("half a dimension", ("numel_tie",), numel.HALF_DIM, ("dim", "一半", "1/2"),
            "out在dim维的size不等于self在dim维size的1/2。", limits=numel.half_limits),
    Pattern("dimension range or even", ("dim_range", "numel_tie"), numel.RANGE_OR_EVEN, ("取值范围", "整除2"),
            "dim不在指定的取值范围内或x在dim对应维度上不能被2整除。", limits=numel.range_or_even_limits),
    Pattern("even dimension", ("numel_tie",), numel.EVEN_DIM, ("整除2", "被2整除", "dim"),
            "x在dim对应维度上不能被2整除。", limits=numel.even_limits),
    Pattern("index dim size", ("index_tie",), ix.DIM_SIZE, ("dim", "元素数量", "shape大小"),
            "source在dim轴上的大小和index的元素数量不等。", limits=ix.dim_size_limits),
    Pattern("index other dims", ("index_tie",), ix.OTHER_DIMS, ("dim", "其余维度", "非dim轴"),
            "self和source除了在维度dim上，其余维度上存在shape值不相等。", limits=ix.other_dims_limits),
    Pattern("index size bound", ("index_tie",), ix.SIZE_BOUND, ("size(d)", "每一个维度d", "d != dim"),
            "对于每一个维度d，有index.size(d) <= src.size(d)。", limits=ix.size_bound_limits,
            conditional=True),
    Pattern("gather shape", ("index_tie",), ix.GATHER_SHAPE, ("扩展为", "相应维", "index的shape"),
            "out的shape不满足除dim维扩展为跟index的shape一样外，其他维长度与self相应维一致。",
            limits=ix.gather_shape_limits),
    Pattern("length", ("length",), rx(f"{LENGTH.pattern}|{LENGTHS.pattern}"), ("长度", "size"),
            "padding的长度不等于6。",
            exclude=rx(r"维|shape|轴"), limits=length_limits),
    Pattern("one element", ("length",), numel.ONE_ELEMENT, ("shape size", "单元素", "不为1"),
            "lr的shape size不为1。", limits=numel.one_element_limits),
    Pattern("length bound", ("length",), ph.LENGTH_BOUND, ("长度", "个数", "超过"),
            "repeats的参数个数超过8。", limits=ph.length_bound_limits),
    Pattern("value sign", ("sign",), SIGN, ("小于0", "小于等于0", "负"), "p小于0。",
            exclude=rx(r"数值中|元素|存在|tensor|Tensor|维"), limits=sign_limits),
    Pattern("string values", ("value_in",), ph.STRING_VALUES, ("不属于", "中的一种", "不是"),
            'mode的值不是"keep"或"floor"。', limits=ph.string_values_limits),
    Pattern("value out of range", ("value_in",),
            rx(rf"值|取值|范围|(?:不是|不为|不等于|只能是|只能为|非)\s*-?\d|^{NAME}\s*(?:不符合约束|"
                r"不符合要求|不合法|非法)$"),
            ("取值", "范围", "值"), "reduction值不在0~2范围之内。", limits=value_limits),
)
