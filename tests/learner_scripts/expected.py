"""What the card must say for each learner script of this folder (each written after the question on its first line).

``line``: the line the card marks (where Python stopped in the learner's code). ``says``:
the learner's names and shapes the explanation must mention. ``fix``: a fix as code exists
and, applied with ``apply_fix``, makes the script run to its end. ``fix_line``: where the
fix applies when that is not the failing line (the learner's call, the layer's
definition). ``reading``: ``"data"`` when the values say the data was wrong (the fix must
not change an ``nn.Linear`` / ``nn.Conv*d`` / ``nn.Embedding`` size), ``"layer"`` when the
layer is what must change, ``"none"`` when no layer is involved.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expect:
    """One learner script and its card."""

    script: str
    key: str
    line: int
    says: tuple[str, ...]
    fix: bool = True
    fix_line: int | None = None
    reading: str = "none"


EXPECTED: list[Expect] = [
    # -- layers: the data, or the layer ---------------------------------------------------------------
    Expect("logreg_mnist_unflattened.py", "linear_in_features", 15,
           ("`images`", "[100, 1, 28, 28]", "`x`", "784"), fix_line=25, reading="data"),
    Expect("fashion_mlp_typo.py", "linear_in_features", 22, ("`images`", "[64, 1, 28, 28]", "784"), reading="data"),
    Expect("tinyvgg_classifier_in_features.py", "linear_in_features", 30,
           ("`self.classifier[1]`", "[32, 490]", "`batch`", "in_features=10"), fix_line=22, reading="layer"),
    Expect("lenet_on_28px.py", "linear_in_features", 23, ("`self.fc1`", "`digits`", "[16, 256]", "400"),
           fix_line=15, reading="layer"),
    Expect("cnn_fc_1050.py", "linear_in_features", 20, ("`self.out`", "`images`", "[2, 1568]", "1050"),
           fix_line=14, reading="layer"),
    Expect("reid_single_image.py", "missing_batch_dim", 21, ("`crop`", "[3, 64, 32]", "batch"), fix_line=28,
           reading="data"),
    Expect("resmem_single_image.py", "missing_batch_dim", 17, ("`image_x`", "[3, 57, 57]"), reading="data"),
    Expect("colorize_gray_no_channel.py", "conv_channels", 16, ("`l_images`", "[8, 32, 32]", "channel"),
           fix_line=24, reading="data"),
    Expect("mnist_conv_no_channel.py", "conv_channels", 14, ("`x`", "[100, 28, 28]", "channel"), reading="data"),
    Expect("segmentation_nhwc.py", "conv_channels", 14, ("`images`", "[2, 64, 64, 3]"), reading="data"),
    Expect("gradcam_grayscale.py", "conv_channels", 18, ("`xray`", "[1, 1, 100, 100]", "Two readings"),
           fix_line=12, reading="layer"),
    Expect("textcnn_vocab_padding.py", "embedding_index", 26, ("`batch`", "7", "num_embeddings=7", "`self.embeddings`"),
           fix_line=21, reading="layer"),
    Expect("tokens_from_other_vocab.py", "embedding_index", 16, ("`question`", "29871", "num_embeddings=500"),
           fix=False, reading="data"),
    Expect("too_few_outputs.py", "loss_target_class", 13, ("`intent_ids`", "0 to 14", "12 classes"), fix_line=11,
           reading="layer"),
    # -- losses ---------------------------------------------------------------------------------------
    Expect("bce_labels_flat.py", "bce_target_shape", 16, ("`pred`", "[64, 1]", "`labels`", "[64]"), reading="data"),
    Expect("bce_logits_int_labels.py", "bce_target_shape", 13, ("`logits`", "[6, 1]", "`is_spam`", "[6]", "int64"),
           reading="data"),
    Expect("segmentation_bce_mask.py", "bce_target_shape", 17, ("`prob`", "[2, 1, 32, 32]", "`mask`", "[2, 32, 32]"),
           reading="data"),
    Expect("labels_one_based.py", "loss_target_class", 14, ("`labels`", "1 to 13", "13 classes"), reading="data"),
    Expect("target_minus_one.py", "loss_target_class", 13, ("`values`", "-1", "ignore_index"), fix_line=11,
           reading="data"),
    Expect("mask_grey_levels.py", "loss_target_class", 13, ("`masks`", "255", "[2, 2, 16, 16]"), reading="data"),
    Expect("seq_target_cross_entropy.py", "loss_target_shape", 17, ("`targets`", "[3, 7]", "`logits`", "[3, 7, 20]"),
           reading="data"),
    Expect("labels_column_vector.py", "loss_target_shape", 13, ("`labels`", "[10, 1]", "`outputs`"), reading="data"),
    Expect("loss_through_argmax.py", "no_grad_fn", 18, ("`pred`", "`logits`", "argmax", "`loss`"), fix=False),
    # -- checkpoints and optimizers ---------------------------------------------------------------------
    Expect("finetune_head_mismatch.py", "state_dict_size", 28, ("`fc.weight`", "[5, 16]", "[3, 16]", "`model`")),
    Expect("dataparallel_prefix.py", "state_dict_keys", 22, ("`module.0.weight`", "`0.weight`", "DataParallel")),
    Expect("checkpoint_wrapped.py", "state_dict_keys", 17, ("`state_dict`", "`epoch`", "`model`")),
    Expect("init_typo.py", "optimizer_empty_params", 19, ("`model`", "`_init_`", "`__init__`"), fix_line=8),
    Expect("layers_in_list.py", "optimizer_empty_params", 21, ("`net`", "`self.hidden`", "ModuleList"), fix_line=12),
    Expect("plain_tensor_weights.py", "optimizer_empty_params", 21, ("`model`", "`self.weight`", "nn.Parameter"),
           fix_line=13),
    Expect("frozen_backbone.py", "optimizer_empty_params", 14, ("`model`", "4 parameters", "requires_grad=False")),
    # -- data loading and conversions ------------------------------------------------------------------
    Expect("captcha_label_lengths.py", "loader_stack_sizes", 25, ("`train_loader`", "`CaptchaDataset`", "`targets`",
                                                                   "[6]", "[7]"), fix_line=24),
    Expect("unet_images_sizes.py", "loader_stack_sizes", 23, ("`loader`", "`PhotoDataset`", "[3, 54, 38]",
                                                              "[3, 79, 58]"), fix=False),
    Expect("batchnorm_last_batch.py", "batchnorm_single_sample", 16, ("`train_dl`", "33 samples", "`xb`", "[1, 6]"),
           fix_line=10),
    Expect("labels_list_of_tensors.py", "tensor_from_tensor_list", 11, ("`labels`", "4 tensors", "[3, 8, 8]")),
    Expect("accuracy_item.py", "item_many_elements", 13, ("`y_test`", "`y_true`", "[40]", "40 elements")),
    Expect("loss_item_unreduced.py", "item_many_elements", 17, ("`per_sample`", "[5]", "5 elements")),
    Expect("num_boxes_int.py", "item_many_elements", 7, ("`num_boxes`", "[2, 3]", "`num_boxes[:, 0]`", "2 elements"),
           fix=False),
    Expect("mask_chained_compare.py", "bool_ambiguous", 8, ("`scores`", "[10]", "`low < scores < high`")),
    Expect("embedding_row_numpy.py", "numpy_requires_grad", 15, ("`emb_vec[u]`", "require grad")),
    Expect("predictions_plot_numpy.py", "numpy_requires_grad", 21, ("`net(xs)`", "require grad")),
    Expect("losses_list_np_sum.py", "numpy_requires_grad", 14, ("`test_losses`", "require grad")),
    Expect("bgr_to_rgb_tensor.py", "numpy_negative_strides", 8, ("`frame[..., ::-1]`", "negative stride")),
    Expect("flip_augment_dataset.py", "numpy_negative_strides", 19, ("`face`", "[16, 16]", "(64, -4)")),
    Expect("sklearn_float64.py", "dtype_mismatch", 20, ("`X_train`", "torch.float64", "`x`", "`self.linear`"),
           fix_line=26),
    Expect("topk_accuracy_view.py", "view_noncontiguous", 16, ("`correct[:k]`", "`correct`", "[5, 16]", "(1, 5)")),
    # -- autograd ---------------------------------------------------------------------------------------
    Expect("residual_relu_inplace.py", "inplace_modified", 26, ("`out`", "line 18", "line 19", "`out += x`",
                                                                "[2, 4, 8, 8]"), fix_line=19),
    Expect("attention_border_zero.py", "inplace_modified", 25, ("`att`", "line 16", "line 17", "[2, 1, 12, 12]"),
           fix_line=17),
    Expect("rnn_h_state_carried.py", "state_carried_across_iterations", 34, ("`h_state`", "line 31", "`loss`"),
           fix_line=31),
    Expect("lstm_language_model_hidden.py", "state_carried_across_iterations", 23, ("`hidden`", "line 20"),
           fix_line=20),
    Expect("manual_sgd_inplace.py", "leaf_inplace", 12, ("`s_batch`", "[4, 4]", "leaf")),
    Expect("zero_grad_before_backward.py", "grad_none_attribute", 15, ("`w1.grad`", "None", "backward()")),
]
