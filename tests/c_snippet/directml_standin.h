/* directml_standin.h - the DirectML types a `dmltensor --format c` snippet
 * uses, written from their documented layouts (DirectML's pages on
 * DML_BUFFER_TENSOR_DESC, DML_TENSOR_DESC, DML_BUFFER_BINDING,
 * DML_BINDING_DESC and the enums below), so that tests can compile the
 * snippets where there is no Windows SDK (Debian has no directml.h).
 *
 * Members are in directml.h's order with its types; enum values are
 * DirectML's. Each enum is also a typedef so that C, like C++, can name it
 * without the `enum` keyword. It is a test fixture, not a replacement for
 * the real header: only what a snippet touches is here. */
#ifndef DMLT_DIRECTML_STANDIN_H
#define DMLT_DIRECTML_STANDIN_H

#include <stddef.h> /* NULL */

typedef unsigned int UINT;         /* 32 bits on every Windows ABI */
typedef unsigned long long UINT64; /* unsigned __int64 */
typedef struct ID3D12Resource ID3D12Resource;

typedef enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DML_TENSOR_DATA_TYPE_UINT32 = 3,
    DML_TENSOR_DATA_TYPE_UINT16 = 4,
    DML_TENSOR_DATA_TYPE_UINT8 = 5,
    DML_TENSOR_DATA_TYPE_INT32 = 6,
    DML_TENSOR_DATA_TYPE_INT16 = 7,
    DML_TENSOR_DATA_TYPE_INT8 = 8,
    DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DML_TENSOR_DATA_TYPE_UINT64 = 10,
    DML_TENSOR_DATA_TYPE_INT64 = 11,
    DML_TENSOR_DATA_TYPE_UINT4 = 12,
    DML_TENSOR_DATA_TYPE_INT4 = 13
} DML_TENSOR_DATA_TYPE;

typedef enum DML_TENSOR_TYPE {
    DML_TENSOR_TYPE_INVALID = 0,
    DML_TENSOR_TYPE_BUFFER = 1
} DML_TENSOR_TYPE;

/* A flags enum (directml.h adds DEFINE_ENUM_FLAG_OPERATORS in C++). */
typedef enum DML_TENSOR_FLAGS {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1
} DML_TENSOR_FLAGS;

typedef struct DML_BUFFER_TENSOR_DESC {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT *Sizes;
    const UINT *Strides; /* optional: NULL for packed */
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

typedef struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void *Desc; /* a DML_BUFFER_TENSOR_DESC for DML_TENSOR_TYPE_BUFFER */
} DML_TENSOR_DESC;

typedef enum DML_BINDING_TYPE {
    DML_BINDING_TYPE_NONE = 0,
    DML_BINDING_TYPE_BUFFER = 1,
    DML_BINDING_TYPE_BUFFER_ARRAY = 2
} DML_BINDING_TYPE;

typedef struct DML_BUFFER_BINDING {
    ID3D12Resource *Buffer;
    UINT64 Offset;
    UINT64 SizeInBytes;
} DML_BUFFER_BINDING;

typedef struct DML_BINDING_DESC {
    DML_BINDING_TYPE Type;
    const void *Desc; /* a DML_BUFFER_BINDING for DML_BINDING_TYPE_BUFFER */
} DML_BINDING_DESC;

#endif
